import { css } from '@emotion/css';
import { GrafanaTheme2, SelectableValue } from '@grafana/data';
import { Select, useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { endpointShare } from '../../windows/endpoints';

import { EndpointState } from './useEndpointSplit';

const ALL = '';

interface Props {
  /** the profile split by endpoint (useEndpointSplit): its endpoints, loading, or why none */
  state: EndpointState;
  /** the endpoint picked (hotpath-endpoint), undefined: all */
  endpoint?: string;
  onPick: (endpoint: string | undefined) => void;
}

const pct = (x: number) => `${x >= 0.1 ? Math.round(x * 100) : (x * 100).toFixed(1)}%`;

/**
 * The endpoint the windows are narrowed to, picked among the profile's endpoints (each with its
 * share of the dashboard range's profile), and the share no endpoint label explains: an endpoint's
 * rows and the diff of its samples are the labelled part only.
 */
export function EndpointPicker({ state, endpoint, onPick }: Props) {
  const styles = useStyles2(getStyles);
  const { split, message } = state;
  const options: Array<SelectableValue<string>> = [
    { value: ALL, label: 'All endpoints' },
    ...(split?.endpoints ?? []).map((e) => ({ value: e.endpoint, label: e.endpoint, description: `${pct(endpointShare(split!, e.endpoint))} of the profile` })),
  ];
  // an endpoint from a link that the range's profile lacks stays shown, so the link is not lost
  if (endpoint && !options.some((o) => o.value === endpoint)) {
    options.push({ value: endpoint, label: endpoint, description: 'no samples in this range' });
  }
  return (
    <div className={styles.picker}>
      <div className={styles.select} data-testid={TEST_IDS.endpoint} title="Narrow both windows to one endpoint's samples (its profile label)">
        <Select
          options={options}
          value={endpoint ?? ALL}
          isLoading={state.status === 'loading'}
          width={22}
          onChange={(v) => onPick(v.value ? v.value : undefined)}
          aria-label="Endpoint"
        />
      </div>
      {message && (
        <span className={styles.warning} data-testid={TEST_IDS.endpointNotice} title={message}>
          {message}
        </span>
      )}
      {split && split.total > 0 && (
        <span className={styles.unlabelled} data-testid={TEST_IDS.endpointUnlabelled} title="Share of the dashboard range's profile that carries no endpoint label: no endpoint accounts for it">
          {pct(split.unlabelledShare)} unlabelled
        </span>
      )}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  picker: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(0.5), flexShrink: 0 }),
  select: css({ flexShrink: 0 }),
  warning: css({ color: theme.colors.warning.text, fontSize: theme.typography.bodySmall.fontSize, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 260 }),
  unlabelled: css({ color: theme.colors.text.secondary, fontSize: theme.typography.bodySmall.fontSize, whiteSpace: 'nowrap' }),
});
