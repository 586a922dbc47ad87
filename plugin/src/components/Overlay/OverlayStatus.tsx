import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { WindowProfile, WindowSlot } from '../../windows/fetcher';
import { Baseline, TimeWindow } from '@hotpath/profile-core';

interface Props {
  height: number;
  range: TimeWindow;
  selection: TimeWindow | null;
  baseline: Baseline | null;
  comparison?: WindowProfile;
  baselineProfile?: WindowProfile;
  siblings: boolean;
  siblingLabel: string;
  /** why no profile query can run for a window (undefined: one can): its title in the line, the whole of it as its tooltip (the view below says it all) */
  noTarget?: { title: string; message: string };
  /** what the URL held that the panel ignored */
  problems: string[];
  hasStrip: boolean;
  describe: (w: TimeWindow) => string;
  onRetry: (slot: WindowSlot) => void;
}

/** The status line: the dashboard range, or the selection and its baseline with their profiles' states. */
export function OverlayStatus(props: Props) {
  const { height, range, selection, baseline, comparison, baselineProfile, siblings, siblingLabel, noTarget, problems, hasStrip, describe, onRetry } = props;
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.status} style={{ height }} data-testid={TEST_IDS.status}>
      {problems.length > 0 && <span className={styles.error}>Ignored from the URL: {problems.join('; ')}. </span>}
      {!selection ? (
        <span>
          {`Dashboard range ${describe(range)}. `}
          {hasStrip ? 'Drag on the strip to select a window (Shift-drag: its baseline), or click an anomaly.' : 'Set hotpath-window in the URL to select a window.'}
        </span>
      ) : (
        <>
          <WindowStatus label="Selection" testId={TEST_IDS.statusComparison} window={selection} profile={comparison} describe={describe} onRetry={() => onRetry('comparison')} />
          {baseline ? (
            <WindowStatus
              label={`Baseline (${baseline.reason})`}
              testId={TEST_IDS.statusBaseline}
              window={baseline.window}
              profile={baselineProfile}
              describe={describe}
              onRetry={() => onRetry('baseline')}
            />
          ) : siblings ? (
            <span data-testid={TEST_IDS.statusBaseline}> · Siblings: name the {siblingLabel} to compare with the others (hotpath-instance).</span>
          ) : (
            <span data-testid={TEST_IDS.statusBaseline}> · No baseline: Shift-drag on the strip to choose one.</span>
          )}
          {noTarget && (
            <span className={styles.noTarget} title={noTarget.message} data-testid={TEST_IDS.statusNoTarget}>
              {noTarget.title}
            </span>
          )}
        </>
      )}
    </div>
  );
}

const STATUS_TEXT: Record<string, string> = { loading: 'loading…', done: 'loaded', empty: 'no samples', error: 'failed' };

/** One window in the status line: its range and a word for its state (the whole message is its tooltip and the view's). */
function WindowStatus(props: { label: string; testId: string; window: TimeWindow; profile?: WindowProfile; describe: (w: TimeWindow) => string; onRetry: () => void }) {
  const { label, testId, window, profile, describe, onRetry } = props;
  const styles = useStyles2(getStyles);
  const status = profile?.status ?? 'loading';
  return (
    <span data-testid={testId} data-status={status} className={styles.windowStatus} title={profile?.message ?? ''}>
      <span className={styles.windowText}>
        <b>{label}</b> {describe(window)}:{' '}
        <span className={status === 'error' ? styles.error : status === 'empty' ? styles.warning : undefined}>{STATUS_TEXT[status]}</span>
      </span>
      {status === 'error' && (
        <Button size="sm" variant="secondary" fill="text" onClick={onRetry} data-testid={TEST_IDS.retry}>
          Retry
        </Button>
      )}
    </span>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  status: css({
    display: 'flex',
    alignItems: 'center',
    gap: theme.spacing(1),
    fontSize: theme.typography.bodySmall.fontSize,
    color: theme.colors.text.secondary,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    flexShrink: 0,
  }),
  windowStatus: css({ display: 'flex', alignItems: 'center', minWidth: 0, flex: '0 1 auto' }),
  // what keeps the profiles from loading, in a few words: the windows' ranges shrink to their
  // ellipses first; it does too, never past the panel's edge, on a panel too narrow for it alone
  noTarget: css({ color: theme.colors.error.text, minWidth: 0, flex: '0 0.01 auto', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }),
  // minWidth 0: a flex item shrinks below its text only so, and then ends it with the ellipsis
  windowText: css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }),
  error: css({ color: theme.colors.error.text }),
  warning: css({ color: theme.colors.warning.text }),
});
