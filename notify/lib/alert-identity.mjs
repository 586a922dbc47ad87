// Who an alert is, as the receiver's parts all spell it: the key its work, its picture and its
// journal records are filed under, the fingerprint an alert's jobs run in order under, its
// one-line title, and the labels its profiles are selected by.
import { createHash } from 'node:crypto';

import { escape } from './mrkdwn.mjs';

/** A key safe for paths and URLs: Alertmanager's fingerprint (hex), or a hash of the labels. */
export function alertKey(alert) {
  const fp = /^[0-9a-f]{1,32}$/.test(alert.fingerprint ?? '') ? alert.fingerprint : createHash('sha256').update(JSON.stringify(Object.entries(alert.labels ?? {}).sort())).digest('hex').slice(0, 16);
  return `${fp}-${Date.parse(alert.startsAt)}`;
}

/** The fingerprint part of an alertKey: one alert's firing and resolve share it. */
export function fingerprintOf(key) {
  return key.split('-')[0];
}

/** The identity of an alert in one line: AlertName job=api instance=... */
export function alertTitle(alert) {
  const l = alert.labels ?? {};
  const who = ['job', 'namespace', 'instance', 'upstream', 'pod', 'container']
    .filter((k) => l[k])
    .map((k) => `${k}=${escape(l[k])}`)
    .join(' ');
  return `${escape(l.alertname ?? 'alert')}${who ? ` ${who}` : ''}`;
}

/**
 * The profile labels of an alert: Pyroscope's service_name is the Prometheus job; the alert's
 * other identity labels (`copy`: namespace and instance by default) are copied when present.
 */
export function profileLabels(labels, copy = ['namespace', 'instance']) {
  const out = {};
  if (labels.job) {
    out.service_name = labels.job;
  }
  for (const k of copy) {
    if (labels[k]) {
      out[k] = labels[k];
    }
  }
  return out;
}
