import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { TAINT_SHUTDOWN, TAINT_UNINITIALIZED } from '../api/well-known.js';
import { addOrUpdateTaint, deleteTaint, hasUninitializedTaint, removeTaint, SHUTDOWN_TAINT, taintExists, withoutUninitializedTaint } from './taints.js';

const nodeWith = (taints?: V1Taint[]): V1Node => ({ metadata: { name: 'node1' }, spec: taints === undefined ? {} : { taints } });

describe('taintExists (upstream taints_test.go)', () => {
  const taints: V1Taint[] = [
    { key: 'foo', value: 'bar', effect: 'NoExecute' },
    { key: 'baz', value: 'qux', effect: 'NoSchedule' },
  ];
  it.each<[string, V1Taint, boolean]>([
    ['taint exists', { key: 'foo', value: 'bar', effect: 'NoExecute' }, true],
    ['same key and effect, different value', { key: 'foo', value: 'other', effect: 'NoExecute' }, true],
    ['different key', { key: 'other', value: 'bar', effect: 'NoExecute' }, false],
    ['different effect', { key: 'foo', value: 'bar', effect: 'NoSchedule' }, false],
  ])('%s', (_name, taint, expected) => {
    expect(taintExists(taints, taint)).toBe(expected);
  });
  it('is false for no taints', () => {
    expect(taintExists(undefined, SHUTDOWN_TAINT)).toBe(false);
    expect(taintExists([], SHUTDOWN_TAINT)).toBe(false);
  });
});

describe('removeTaint (upstream taints_test.go)', () => {
  it('leaves a node without taints untouched', () => {
    const node = nodeWith();
    expect(removeTaint(node, SHUTDOWN_TAINT)).toEqual({ node, updated: false });
  });
  it('removes a matching taint and keeps the others', () => {
    const node = nodeWith([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }, { key: 'keep', effect: 'NoSchedule' }]);
    const result = removeTaint(node, SHUTDOWN_TAINT);
    expect(result.updated).toBe(true);
    expect(result.node.spec?.taints).toEqual([{ key: 'keep', effect: 'NoSchedule' }]);
    expect(node.spec?.taints).toHaveLength(2);
  });
  it('does not remove a taint with the same key but another effect', () => {
    const node = nodeWith([{ key: TAINT_SHUTDOWN, effect: 'NoExecute' }]);
    expect(removeTaint(node, SHUTDOWN_TAINT).updated).toBe(false);
  });
});

describe('deleteTaint (upstream taints_test.go)', () => {
  it.each<[string, V1Taint[] | undefined, V1Taint, V1Taint[], boolean]>([
    ['delete from no taints', undefined, SHUTDOWN_TAINT, [], false],
    ['delete the only taint', [{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }], SHUTDOWN_TAINT, [], true],
    ['same key, other effect is kept', [{ key: TAINT_SHUTDOWN, effect: 'NoExecute' }], SHUTDOWN_TAINT, [{ key: TAINT_SHUTDOWN, effect: 'NoExecute' }], false],
    [
      'every matching taint is deleted',
      [
        { key: TAINT_SHUTDOWN, effect: 'NoSchedule' },
        { key: 'a', effect: 'NoSchedule' },
        { key: TAINT_SHUTDOWN, value: 'x', effect: 'NoSchedule' },
      ],
      SHUTDOWN_TAINT,
      [{ key: 'a', effect: 'NoSchedule' }],
      true,
    ],
  ])('%s', (_name, taints, taint, expected, deleted) => {
    expect(deleteTaint(taints, taint)).toEqual({ taints: expected, deleted });
  });
});

describe('addOrUpdateTaint (upstream taints.go)', () => {
  it('appends an absent taint', () => {
    const result = addOrUpdateTaint(nodeWith([{ key: 'a', effect: 'NoSchedule' }]), SHUTDOWN_TAINT);
    expect(result.updated).toBe(true);
    expect(result.node.spec?.taints).toEqual([{ key: 'a', effect: 'NoSchedule' }, { key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
  });
  it('does nothing when the same taint is present', () => {
    const node = nodeWith([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
    expect(addOrUpdateTaint(node, SHUTDOWN_TAINT)).toEqual({ node, updated: false });
  });
  it('replaces a taint with the same key and effect but different content', () => {
    const result = addOrUpdateTaint(nodeWith([{ key: TAINT_SHUTDOWN, value: 'old', effect: 'NoSchedule' }, { key: 'b', effect: 'NoExecute' }]), SHUTDOWN_TAINT);
    expect(result.updated).toBe(true);
    expect(result.node.spec?.taints).toEqual([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }, { key: 'b', effect: 'NoExecute' }]);
  });
});

describe('uninitialized taint (matched on key only)', () => {
  it.each<[string, V1Taint[] | undefined, boolean]>([
    ['no taints', undefined, false],
    ['kubelet taint', [{ key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' }], true],
    ['other value and effect', [{ key: TAINT_UNINITIALIZED, value: 'x', effect: 'NoExecute' }], true],
    ['other key', [{ key: 'node.cloudprovider.kubernetes.io/uninitialized-x', effect: 'NoSchedule' }], false],
  ])('%s', (_name, taints, expected) => {
    expect(hasUninitializedTaint(nodeWith(taints))).toBe(expected);
  });
  it('removes every taint with the key, whatever the effect', () => {
    expect(
      withoutUninitializedTaint([
        { key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' },
        { key: 'keep', effect: 'NoSchedule' },
        { key: TAINT_UNINITIALIZED, effect: 'NoExecute' },
      ]),
    ).toEqual([{ key: 'keep', effect: 'NoSchedule' }]);
  });
});
