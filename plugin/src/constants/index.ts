export const PLUGIN_ID = 'hotpath-overlay-panel';

export { TEST_IDS } from './testIds';
