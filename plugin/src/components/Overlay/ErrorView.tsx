import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { ProfileErrorKind } from '@hotpath/profile-core';

/** The title above a profile that cannot be drawn, by the kind of its ProfileError (every kind has one). */
export const PROFILE_ERROR_TITLES: Record<ProfileErrorKind, string> = {
  'no-data': 'No profile',
  'missing-field': 'Not a profile frame',
  'wrong-type': 'Not a profile frame',
  'invalid-value': 'Invalid profile',
  order: 'Invalid profile',
  length: 'Invalid profile',
  empty: 'Empty profile',
  mismatch: 'Cannot compare these profiles',
  pprof: 'Invalid pprof',
};

interface Props {
  title: string;
  message: string;
  /** e.g. a Retry button */
  children?: React.ReactNode;
}

/** What the panel shows instead of a graph: plain text, never HTML (names come from profiles). */
export function ErrorView({ title, message, children }: Props) {
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.wrap} data-testid={TEST_IDS.error} role="alert">
      <div className={styles.title}>{title}</div>
      <div className={styles.message}>{message}</div>
      {children}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  wrap: css({
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    height: '100%',
    padding: theme.spacing(2),
    textAlign: 'center',
    overflow: 'auto',
  }),
  title: css({ fontSize: theme.typography.h5.fontSize, marginBottom: theme.spacing(1) }),
  message: css({ color: theme.colors.text.secondary, maxWidth: 640, overflowWrap: 'anywhere' }),
});
