/**
 * What Grafana 13.2 (React 19) shares with plugins: the names of its sharedDependencies.ts
 * (public/app/features/plugins/loader), no more: 12.4's list plus react-dom/client and
 * react-dom/server. The modules this plugin can import come from this host's package.json;
 * the others keep their names but are not installed.
 */
import * as emotionCss from '@emotion/css';
import * as grafanaData from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as grafanaUi from '@grafana/ui';
import * as react from 'react';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as jsxRuntime from 'react/jsx-runtime';
import * as reactDom from 'react-dom';
import * as reactDomClient from 'react-dom/client';
import * as rxjs from 'rxjs';
import * as rxjsOperators from 'rxjs/operators';

import { absent, SHARED_NOT_INSTALLED } from '../not-in-test-host';

export const GRAFANA_RELEASE = '13.2';

export const SHARED_MODULES: Record<string, unknown> = {
  '@emotion/css': emotionCss,
  '@grafana/data': grafanaData,
  '@grafana/runtime': grafanaRuntime,
  '@grafana/ui': grafanaUi,
  emotion: emotionCss,
  lodash: () => import('lodash').then((m) => ({ ...m, __useDefault: true })),
  react,
  'react/jsx-runtime': jsxRuntime,
  'react/jsx-dev-runtime': jsxDevRuntime,
  'react-dom': reactDom,
  'react-dom/client': reactDomClient,
  rxjs,
  'rxjs/operators': rxjsOperators,
  ...absent([...SHARED_NOT_INSTALLED, '@grafana/data/unstable', '@grafana/runtime/unstable', '@grafana/ui/unstable', 'react-dom/server']),
};
