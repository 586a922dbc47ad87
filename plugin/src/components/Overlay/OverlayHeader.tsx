import { css } from '@emotion/css';
import { ReactNode } from 'react';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, Input, LinkButton, RadioButtonGroup, useStyles2 } from '@grafana/ui';

import { choices } from '../../choices';
import { TEST_IDS } from '../../constants';
import { BASELINE_MODES, BaselineMode, VALUE_UNITS, ValueUnit } from '@hotpath/profile-core';
import { UrlState } from '../../windows/urlState';
import { UNIT_LABELS } from '../format';
import { VIEW_OPTIONS, ViewKind } from '../types';

const MODE_OPTIONS = choices(BASELINE_MODES, {
  auto: { label: 'Auto', description: 'Same length, before the anomaly (or the selection)' },
  day: { label: '−1d', description: 'The same window one day earlier' },
  week: { label: '−1w', description: 'The same window one week earlier' },
  manual: { label: 'Shift-drag', description: 'Drag on the strip with Shift held to choose the baseline' },
  siblings: { label: 'Siblings', description: 'The same window on every other instance of the service (hotpath-instance names the one to compare)' },
});

const UNIT_OPTIONS = choices(VALUE_UNITS, {
  'per-request': { label: UNIT_LABELS['per-request'], description: "Each window's values divided by its requests (the request-rate series integrated over the window)" },
  absolute: { label: UNIT_LABELS.absolute, description: "The profile's own values: CPU time, bytes" },
  share: { label: UNIT_LABELS.share, description: "Each side's values as a share of its own total" },
});

interface Props {
  height: number;
  view: ViewKind;
  disabledViews: ViewKind[];
  unit: ValueUnit;
  /** per request cannot be chosen: a window shown has no request count */
  perRequestMissing: boolean;
  /** why the unit is not the one asked for (the views say it too) */
  unitNotice?: string;
  mode: BaselineMode;
  /** the option's baseline mode: choosing it clears the URL's */
  defaultMode: BaselineMode;
  instance?: string;
  siblingLabel: string;
  hasSelection: boolean;
  links?: { explore: string; drilldown?: string };
  /** the endpoint picker (EndpointPicker), when the panel has endpoint labels */
  endpointPicker?: ReactNode;
  onUpdate: (patch: Partial<UrlState>) => void;
  onClear: () => void;
}

/** The overlay's header: view, unit and baseline mode, the sibling to compare, and the links out. */
export function OverlayHeader(props: Props) {
  const { height, view, disabledViews, unit, perRequestMissing, unitNotice, mode, defaultMode, instance, siblingLabel, hasSelection, links, endpointPicker, onUpdate, onClear } = props;
  const styles = useStyles2(getStyles);
  const setInstance = (value: string) => onUpdate({ instance: value.trim() || undefined });
  return (
    <div className={styles.header} style={{ height }}>
      <div data-testid={TEST_IDS.views}>
        <RadioButtonGroup size="sm" options={VIEW_OPTIONS} value={view} disabledOptions={disabledViews} onChange={(v) => onUpdate({ view: v })} />
      </div>
      <div data-testid={TEST_IDS.units} title={unitNotice ?? 'Unit of the values'}>
        <RadioButtonGroup size="sm" options={UNIT_OPTIONS} value={unit} disabledOptions={perRequestMissing ? ['per-request'] : []} onChange={(u) => onUpdate({ unit: u as ValueUnit })} />
      </div>
      <div data-testid={TEST_IDS.baselineMode} title="Baseline window">
        <RadioButtonGroup size="sm" options={MODE_OPTIONS} value={mode} onChange={(m) => onUpdate({ baseline: m === defaultMode ? undefined : m })} />
      </div>
      {mode === 'siblings' && (
        <div className={styles.instance}>
          <Input
            key={instance ?? ''}
            defaultValue={instance ?? ''}
            placeholder={`${siblingLabel} to compare`}
            title={`The ${siblingLabel} compared with every other one (hotpath-instance)`}
            data-testid={TEST_IDS.instance}
            onBlur={(e) => setInstance(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                setInstance(e.currentTarget.value);
              }
            }}
          />
        </div>
      )}
      {endpointPicker}
      <span className={styles.spacer} />
      {hasSelection && (
        <Button size="sm" variant="secondary" fill="text" icon="times" onClick={onClear} data-testid={TEST_IDS.clearSelection}>
          Clear
        </Button>
      )}
      {links && (
        <LinkButton size="sm" variant="secondary" fill="text" icon="compass" href={links.explore} target="_blank" rel="noreferrer" data-testid={TEST_IDS.exploreLink}>
          Explore
        </LinkButton>
      )}
      {links?.drilldown && (
        <LinkButton size="sm" variant="secondary" fill="text" icon="fire" href={links.drilldown} target="_blank" rel="noreferrer" data-testid={TEST_IDS.drilldownLink}>
          Profiles Drilldown
        </LinkButton>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  header: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(1), flexShrink: 0, overflow: 'hidden' }),
  spacer: css({ flex: 1 }),
  instance: css({ width: 130, flexShrink: 0 }),
});
