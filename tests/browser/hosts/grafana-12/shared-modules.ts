/**
 * What Grafana 12.4 shares with plugins: the names of its sharedDependencies.ts
 * (public/app/features/plugins/loader), no more. Since 12.3.0 (grafana PR #108478) that
 * includes react/jsx-runtime and react/jsx-dev-runtime, and @grafana/{data,runtime,ui}/unstable;
 * i18next is @grafana/i18n's instance. The modules this plugin can import come from this
 * host's package.json; the others keep their names but are not installed.
 */
import * as emotionCss from '@emotion/css';
import * as grafanaData from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as grafanaUi from '@grafana/ui';
import * as react from 'react';
import * as jsxDevRuntime from 'react/jsx-dev-runtime';
import * as jsxRuntime from 'react/jsx-runtime';
import * as reactDom from 'react-dom';
import * as rxjs from 'rxjs';
import * as rxjsOperators from 'rxjs/operators';

import { absent, SHARED_NOT_INSTALLED } from '../not-in-test-host';

export const GRAFANA_RELEASE = '12.4';

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
  rxjs,
  'rxjs/operators': rxjsOperators,
  ...absent([...SHARED_NOT_INSTALLED, '@grafana/data/unstable', '@grafana/runtime/unstable', '@grafana/ui/unstable']),
};
