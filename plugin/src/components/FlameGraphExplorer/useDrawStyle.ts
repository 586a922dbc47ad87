import { useTheme2 } from '@grafana/ui';
import { useMemo } from 'react';

import { DiffScheme } from '../../render/colors';
import { DrawStyle } from '../../render/draw';

/** The canvas' colours and font, from the Grafana theme and the diff's colour scheme. */
export function useDrawStyle(diffScheme: DiffScheme): DrawStyle {
  const theme = useTheme2();
  return useMemo(
    () => ({
      dark: theme.isDark,
      background: theme.colors.background.primary,
      text: theme.isDark ? '#f4f5f5' : '#111217',
      dimmed: theme.isDark ? '#3a3d44' : '#d8d9dc',
      dimmedText: theme.colors.text.secondary,
      font: `12px ${theme.typography.fontFamilyMonospace}`,
      diffScheme,
    }),
    [theme, diffScheme]
  );
}
