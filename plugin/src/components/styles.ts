import { GrafanaTheme2 } from '@grafana/data';

/**
 * Style pieces the views share, spread into their `css({...})`: one line that ends in an
 * ellipsis where it does not fit, Grafana's secondary text colour and its small text. One
 * definition each keeps the views alike (module.js holds each once).
 */
export const oneLine = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** Grafana's secondary text colour: captions, shares, what is beside the point. */
export const muted = (theme: GrafanaTheme2) => ({ color: theme.colors.text.secondary });

/** Grafana's small text. */
export const small = (theme: GrafanaTheme2) => ({ fontSize: theme.typography.bodySmall.fontSize });
