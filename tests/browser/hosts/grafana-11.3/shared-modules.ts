/**
 * What Grafana 11.3 shares with plugins: the names of its sharedDependencies.ts
 * (public/app/features/plugins/loader), no more. It shares neither react/jsx-runtime nor
 * react-dom/client: Grafana shares react/jsx-runtime only from 11.6.11, 12.0.10, 12.1.7, 12.2.5
 * and 12.3.0 (grafana PR #108478 and its backports), so a plugin that imports it does not load
 * here. The modules this plugin can import come from this host's package.json; the others
 * (Grafana's app/* services, jQuery, slate, d3...) keep their names but are not installed.
 */
import * as emotionCss from '@emotion/css';
import * as grafanaData from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as grafanaUi from '@grafana/ui';
import * as react from 'react';
import * as reactDom from 'react-dom';
import * as rxjs from 'rxjs';
import * as rxjsOperators from 'rxjs/operators';

import { absent, SHARED_NOT_INSTALLED } from '../not-in-test-host';

export const GRAFANA_RELEASE = '11.3';

export const SHARED_MODULES: Record<string, unknown> = {
  '@emotion/css': emotionCss,
  '@grafana/data': grafanaData,
  '@grafana/runtime': grafanaRuntime,
  '@grafana/ui': grafanaUi,
  emotion: emotionCss,
  lodash: () => import('lodash').then((m) => ({ default: m.default, __useDefault: true })),
  react,
  'react-dom': reactDom,
  rxjs,
  'rxjs/operators': rxjsOperators,
  ...absent(SHARED_NOT_INSTALLED),
};
