import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, Input, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import { memo } from 'react';

import { TEST_IDS } from '../../constants';
import { formatCount, SearchResult, ValueUnit } from '@hotpath/profile-core';

import { formatIn, formatPercent } from '../format';
import { GRAPH_MODE_NAMES, GraphMode, nextGraphMode, PANE_LAYOUTS, PaneLayout, SANDWICH } from '../types';

interface Props {
  search: string;
  regex: boolean;
  result?: SearchResult;
  searchError?: string;
  diff: boolean;
  mode: GraphMode;
  focusPath: string[];
  /** how search totals read: share of samples, or also the matched value (per request or absolute) */
  valueUnit?: ValueUnit;
  profileUnit?: string;
  /** the sandwich toggle: shown when a function is selected */
  sandwich?: { name: string; on: boolean; onToggle: () => void };
  onSearch: (text: string) => void;
  onRegex: (regex: boolean) => void;
  onMode: (mode: GraphMode) => void;
  onResetFocus: () => void;
  /** the panes shown (flame graph, call tree, top table; single or split); absent: no choice */
  panes?: { layout: PaneLayout; onChange: (layout: PaneLayout) => void };
}

export const Toolbar = memo(function Toolbar(props: Props) {
  const { search, regex, result, searchError, diff, mode, focusPath, valueUnit = 'share', profileUnit = '', sandwich, onSearch, onRegex, onMode, onResetFocus, panes } = props;
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.bar}>
      <div className={styles.search}>
        <div className={styles.input}>
          <Input
            value={search}
            placeholder={regex ? 'Search functions (regular expression)' : 'Search functions'}
            onChange={(e) => onSearch(e.currentTarget.value)}
            data-testid={TEST_IDS.search}
          />
        </div>
        <Button
          variant={regex ? 'primary' : 'secondary'}
          size="sm"
          fill="outline"
          onClick={() => onRegex(!regex)}
          data-testid={TEST_IDS.searchRegex}
          tooltip="Regular expression"
        >
          .*
        </Button>
      </div>
      {searchError ? (
        <span className={styles.error} data-testid={TEST_IDS.searchShare}>
          {searchError}
        </span>
      ) : result ? (
        <span className={styles.share} data-testid={TEST_IDS.searchShare} title={searchText(result, diff, valueUnit, profileUnit)}>
          {searchText(result, diff, valueUnit, profileUnit)}
        </span>
      ) : null}
      <span className={styles.path} data-testid={TEST_IDS.focusPath} title={focusPath.join(' › ')}>
        {focusPath.length ? `Focus: ${focusPath.join(' › ')}` : ''}
      </span>
      {/* always mounted (disabled without a focus): zooming in and out does not remount it */}
      <Button size="sm" variant="secondary" onClick={onResetFocus} data-testid={TEST_IDS.resetFocus} disabled={focusPath.length === 0}>
        Reset focus
      </Button>
      {sandwich && (
        <Button
          size="sm"
          variant={sandwich.on ? 'primary' : 'secondary'}
          fill="outline"
          onClick={sandwich.onToggle}
          data-testid={TEST_IDS.sandwichToggle}
          tooltip={SANDWICH.description(sandwich.name)}
        >
          {SANDWICH.label}
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        fill="outline"
        onClick={() => onMode(nextGraphMode(mode))}
        data-testid={TEST_IDS.modeToggle}
      >
        {GRAPH_MODE_NAMES[mode].short}
      </Button>
      {panes && (
        <div data-testid={TEST_IDS.panes} className={styles.panes}>
          <RadioButtonGroup size="sm" options={PANE_LAYOUTS} value={panes.layout} onChange={panes.onChange} />
        </div>
      )}
    </div>
  );
});

/** "3 frames, 40.00% of samples", with the matched value in per-request and absolute units, both sides for a diff. */
export function searchText(result: SearchResult, diff: boolean, unit: ValueUnit, profileUnit: string): string {
  const frames = `${formatCount(result.matchCount)} frames`;
  if (unit === 'share') {
    return `${frames}, ${formatPercent(result.share)} of samples${diff && result.shareRight !== undefined ? ` (baseline) → ${formatPercent(result.shareRight)} (comparison)` : ''}`;
  }
  const side = (value: number, share: number) => `${formatIn(unit, value, 1, profileUnit)} (${formatPercent(share)} of samples)`;
  if (diff && result.matchedValueRight !== undefined && result.shareRight !== undefined) {
    return `${frames}: ${side(result.matchedValue, result.share)} (baseline) → ${side(result.matchedValueRight, result.shareRight)} (comparison)`;
  }
  return `${frames}: ${side(result.matchedValue, result.share)}`;
}

const getStyles = (theme: GrafanaTheme2) => ({
  bar: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(1), padding: theme.spacing(0.5, 0), minHeight: 36 }),
  search: css({ display: 'flex', gap: theme.spacing(0.5), alignItems: 'center', flexShrink: 0 }),
  input: css({ width: 280, flexShrink: 1, minWidth: 120 }),
  panes: css({ flexShrink: 0 }),
  // shrinks before the buttons do: a long search total never pushes them out of the panel
  share: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0, flexShrink: 1 }),
  error: css({ color: theme.colors.error.text, fontSize: theme.typography.bodySmall.fontSize }),
  path: css({
    flex: 1,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: theme.colors.text.secondary,
    fontSize: theme.typography.bodySmall.fontSize,
    direction: 'rtl',
    textAlign: 'left',
  }),
});
