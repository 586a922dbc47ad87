import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';

/** Row height in pixels: the virtualised list places rows by it. */
export const CALL_TREE_ROW = 22;
/** The column headers' height in pixels. */
export const CALL_TREE_HEADER = 26;

/** The call tree's styles, shared by the container and its rows (one set of classes). */
export const getCallTreeStyles = (theme: GrafanaTheme2) => {
  const small = theme.typography.bodySmall.fontSize;
  const clip = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
  const grid = (columns: string) => css({ display: 'grid', alignItems: 'center', fontSize: small, gridTemplateColumns: `minmax(0, 1fr) 150px 150px 120px${columns}` });
  return {
    wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
    caption: css({ ...clip, height: 20, fontSize: small, color: theme.colors.text.secondary }),
    controls: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(0.5), height: 30, fontSize: small }),
    muted: css({ color: theme.colors.text.secondary, whiteSpace: 'nowrap' }),
    grid_: css({ outline: 'none', '&:focus-visible': { boxShadow: `inset 0 0 0 1px ${theme.colors.primary.border}` } }),
    grid: grid(''),
    gridDiff: grid(' 110px'),
    header: css({ background: theme.colors.background.secondary }),
    body: css({ overflow: 'auto' }),
    row: css({ position: 'absolute', left: 0, right: 0, cursor: 'pointer', '&:hover': { background: theme.colors.action.hover } }),
    selected: css({ background: theme.colors.action.selected }),
    focused: css({ boxShadow: `inset 3px 0 0 ${theme.colors.primary.main}` }),
    cell: css({ ...clip, padding: theme.spacing(0, 1), fontVariantNumeric: 'tabular-nums' }),
    chevron: css({ display: 'inline-block', width: 14, color: theme.colors.text.secondary }),
    match: css({ fontWeight: theme.typography.fontWeightBold, textDecoration: 'underline' }),
    more: css({ color: theme.colors.error.text }),
    less: css({ color: theme.colors.success.text }),
  };
};

export type CallTreeStyles = ReturnType<typeof getCallTreeStyles>;
