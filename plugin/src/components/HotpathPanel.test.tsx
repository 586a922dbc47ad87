import { createDataFrame } from '@grafana/data';
import { render, screen } from '@testing-library/react';

import { TEST_IDS } from '../constants';
import { treeToFrame } from '../data/frame';
import { printlnAfter, printlnBefore } from '../data/testdata/trees';

import { HotpathPanel } from './HotpathPanel';
import { panelProps } from './testUtils';

function setup(...args: Parameters<typeof panelProps>) {
  render(<HotpathPanel {...panelProps(...args)} />);
}

describe('HotpathPanel', () => {
  it('draws a profile frame', () => {
    setup([treeToFrame(printlnAfter(), { refId: 'A' })]);
    expect(screen.getByTestId(TEST_IDS.canvas)).toBeInTheDocument();
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('fmt.Println');
    expect(screen.queryByTestId(TEST_IDS.changesTable)).not.toBeInTheDocument();
  });

  it('diffs against the baseline query', () => {
    setup([treeToFrame(printlnBefore(), { refId: 'B' }), treeToFrame(printlnAfter(), { refId: 'A' })], { baselineRefId: 'B' });
    const changes = screen.getByTestId(TEST_IDS.changesTable);
    const firstRow = changes.querySelector('tbody tr');
    expect(firstRow).toHaveTextContent('prototext.MarshalOptions.Format');
    expect(firstRow).toHaveTextContent('+70.00 pp');
    expect(screen.getByTestId(TEST_IDS.legend)).toBeInTheDocument();
  });

  it.each([
    ['no frames', [], /No data/],
    ['a time series frame', [createDataFrame({ refId: 'A', fields: [{ name: 'time', values: [1] }, { name: 'cpu', values: [0.5] }] })], /None of the 1 frame is a profile/],
    ['a frame without self', [createDataFrame({ fields: [{ name: 'level', values: [0] }, { name: 'value', values: [1] }, { name: 'label', values: ['x'] }] })], /missing field "self"/],
    ['an empty profile', [createDataFrame({ meta: { preferredVisualisationType: 'flamegraph' }, fields: [{ name: 'level', values: [] }, { name: 'value', values: [] }, { name: 'self', values: [] }, { name: 'label', values: [] }] })], /empty/],
  ])('says what is wrong: %s', (_name, series, message) => {
    setup(series);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(message);
  });

  it('refuses to diff profiles of different units', () => {
    const cpu = printlnAfter();
    const heap = { ...printlnBefore(), unit: 'bytes' };
    setup([treeToFrame(heap, { refId: 'B' }), treeToFrame(cpu, { refId: 'A' })], { baselineRefId: 'B' });
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent(/baseline is in "bytes" but the profile in "short"/);
  });

  it('folds large profiles and says so', () => {
    setup([treeToFrame(printlnAfter())], { maxNodes: 4 });
    expect(screen.getByTestId(TEST_IDS.notice)).toHaveTextContent(/folded into "other"/);
  });

  it('renders hostile names as text, never as HTML', () => {
    const tree = printlnAfter();
    tree.names[tree.nameId[1]] = '<img src=x onerror="window.__pwned=1">';
    setup([treeToFrame(tree)]);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('<img src=x');
  });
});
