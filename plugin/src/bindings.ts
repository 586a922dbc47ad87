/**
 * The host's functions the panel calls, as local bindings, and JSX's factory `h`. Webpack
 * reaches a named import of an external module (Grafana's React, emotion, @grafana/ui and
 * @grafana/data) through the module, `(0,r.useMemo)(…)` at every call site; bound once here, each
 * call is a short local name in module.js (2.8 KB of it for React and emotion, 0.75 KB more for
 * @grafana/ui's and @grafana/data's). The build points the panel's imports of those modules here
 * (.config/bindings-loader.js); the sources, their types and their tests import the modules
 * themselves. A name the panel imports from them and this file lacks fails the build; types are
 * gone by then.
 */
import { css as emotionCss, cx as emotionCx } from '@emotion/css';
import * as GrafanaData from '@grafana/data';
import * as GrafanaUI from '@grafana/ui';
import * as React from 'react';

export const { createElement: h, Fragment, forwardRef, lazy, memo, Suspense, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } = React;
export const css = emotionCss;
export const cx = emotionCx;
export const { Button, Input, LinkButton, LoadingPlaceholder, RadioButtonGroup, Select, useStyles2, useTheme2 } = GrafanaUI;
export const { dateTime, dateTimeFormat, FieldType, formattedValueToString, getDisplayProcessor, getFieldDisplayName, getValueFormat, LoadingState, PanelPlugin, urlUtil } =
  GrafanaData;
