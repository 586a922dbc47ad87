/**
 * The host's functions the panel calls most, as local bindings, and JSX's factory `h`. Webpack
 * reaches a named import of an external module (Grafana's React and emotion) through the module,
 * `(0,r.useMemo)(…)` at every call site; bound once here, each call is a short local name in
 * module.js (2.8 KB of it). The build points the panel's imports of 'react' and '@emotion/css'
 * here (.config/bindings-loader.js); the sources, their types and their tests import the modules
 * themselves. A name the panel imports from them and this file lacks fails the build.
 */
import { css as emotionCss, cx as emotionCx } from '@emotion/css';
import * as React from 'react';

export const { createElement: h, Fragment, forwardRef, memo, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } = React;
export const css = emotionCss;
export const cx = emotionCx;
