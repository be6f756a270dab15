import { describe, expect, it } from 'vitest';
import { mergeAdditionalLabels, planLabelReconcile } from './node-labels.js';

describe('Test_reconcileNodeLabels planning (upstream)', () => {
  it.each<[string, Record<string, string> | undefined, Record<string, string>]>([
    [
      'requires reconcile',
      { 'failure-domain.beta.kubernetes.io/zone': 'foo', 'failure-domain.beta.kubernetes.io/region': 'bar', 'beta.kubernetes.io/instance-type': 'the-best-type' },
      { 'topology.kubernetes.io/zone': 'foo', 'topology.kubernetes.io/region': 'bar', 'node.kubernetes.io/instance-type': 'the-best-type' },
    ],
    [
      'doesn\'t require reconcile',
      {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'foo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'bar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-best-type',
      },
      {},
    ],
    [
      'require reconcile -- secondary labels are different from primary',
      {
        'failure-domain.beta.kubernetes.io/zone': 'foo',
        'topology.kubernetes.io/zone': 'wrongfoo',
        'failure-domain.beta.kubernetes.io/region': 'bar',
        'topology.kubernetes.io/region': 'wrongbar',
        'beta.kubernetes.io/instance-type': 'the-best-type',
        'node.kubernetes.io/instance-type': 'the-wrong-type',
      },
      { 'topology.kubernetes.io/zone': 'foo', 'topology.kubernetes.io/region': 'bar', 'node.kubernetes.io/instance-type': 'the-best-type' },
    ],
    ['primary label missing: nothing to do (GA alone is left alone)', { 'topology.kubernetes.io/zone': 'foo' }, {}],
    ['no labels', undefined, {}],
  ])('%s', (_name, labels, expected) => {
    expect(planLabelReconcile(labels)).toEqual(expected);
  });
});

describe('AdditionalLabels merge rules', () => {
  it('adds new labels, never overwrites, and discards reserved prefixes but keeps look-alikes', () => {
    const { labels, discarded } = mergeAdditionalLabels(
      { existing: 'old', same: 'v' },
      {
        'example.com/team': 'a',
        existing: 'new',
        same: 'v',
        'k8s.io/foo': 'x',
        'kubernetes.io/foo': 'x',
        'node.kubernetes.io/foo': 'x',
        'sub.k8s.io/foo': 'x',
        'k8snio/bar': 'kept',
        'app.k8snio/bar': 'kept',
        'kubernetesxio/bar': 'kept',
        'mykubernetes.io/bar': 'kept',
      },
    );
    expect(labels).toEqual({
      existing: 'old',
      same: 'v',
      'example.com/team': 'a',
      'k8snio/bar': 'kept',
      'app.k8snio/bar': 'kept',
      'kubernetesxio/bar': 'kept',
      'mykubernetes.io/bar': 'kept',
    });
    expect(discarded).toEqual([
      { key: 'existing', reason: 'AlreadyPresent', warn: true },
      { key: 'same', reason: 'AlreadyPresent', warn: false },
      { key: 'k8s.io/foo', reason: 'ReservedPrefix', warn: true },
      { key: 'kubernetes.io/foo', reason: 'ReservedPrefix', warn: true },
      { key: 'node.kubernetes.io/foo', reason: 'ReservedPrefix', warn: true },
      { key: 'sub.k8s.io/foo', reason: 'ReservedPrefix', warn: true },
    ]);
  });
  it('handles missing maps', () => {
    expect(mergeAdditionalLabels(undefined, undefined)).toEqual({ labels: {}, discarded: [] });
  });
});
