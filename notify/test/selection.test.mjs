// What an alert asks the profile source for: the type, the labels, a key safe for paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { alertKey, profileLabels } from '../lib/alert-identity.mjs';
import { profileKind } from '../lib/notifier.mjs';
import { labelSelector } from '../lib/pyroscope.mjs';

describe('the profile an alert asks for', () => {
  it('CPU for the CPU alerts, alloc_space for allocations, none for throttling', () => {
    for (const a of ['CPUPerRequestRegression', 'CPUPerRequestAboveUpstream', 'CPUPerRequestOutlier', 'CPUNotTrackingLoad']) {
      assert.equal(profileKind(a), 'cpu', a);
    }
    assert.equal(profileKind('AllocationsPerRequestRegression'), 'alloc_space');
    assert.equal(profileKind('CPUThrottlingSustained'), undefined);
  });

  it('selects by job as service_name, plus namespace and instance when the alert has them', () => {
    assert.equal(labelSelector(profileLabels({ alertname: 'X', job: 'api', severity: 'warning', upstream: 'cache' })), '{service_name="api"}');
    assert.equal(labelSelector(profileLabels({ job: 'catalog', instance: '127.0.0.1:9108', namespace: 'shop', cluster: 'eu' })), '{service_name="catalog", namespace="shop", instance="127.0.0.1:9108"}');
    assert.equal(labelSelector(profileLabels({ job: 'poller', namespace: 'hotpath-demo' }, ['instance'])), '{service_name="poller"}', 'the copied labels are a knob');
    assert.equal(labelSelector({ service_name: 'a"b\\c' }), '{service_name="a\\"b\\\\c"}', 'values are quoted, not spliced');
  });

  it('keys alerts by fingerprint and startsAt; a hostile fingerprint becomes a hash', () => {
    assert.equal(alertKey({ fingerprint: '0123abcd', startsAt: '2026-01-01T12:00:00Z' }), '0123abcd-1767268800000');
    assert.match(alertKey({ fingerprint: '../../etc', labels: { a: 'b' }, startsAt: '2026-01-01T12:00:00Z' }), /^[0-9a-f]{16}-1767268800000$/);
  });
});
