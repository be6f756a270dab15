import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { describe, expect, it } from 'vitest';
import { TAINT_SHUTDOWN } from '../api/well-known.js';
import { KubeApiError } from '../kube/kube-api-error.js';
import { addOrUpdateLabelsOnNode, addOrUpdateTaintOnNode, removeTaintOffNode, type NodeAccess } from './node-metadata-updates.js';
import { SHUTDOWN_TAINT } from './taints.js';

const noSleep = { sleep: async () => {} };
const conflict = () => new KubeApiError('the object has been modified', 409, 'Conflict');

function setup(taints?: Array<{ key: string; effect: string; value?: string }>) {
  const kube = new InMemoryKubeAccess();
  kube.addNode({ metadata: { name: 'node0', labels: { keep: 'me' } }, spec: taints === undefined ? {} : { taints } });
  kube.clearActions();
  const access: NodeAccess = { nodes: kube.nodes, nodeStore: kube.nodeInformer.store, retry: noSleep };
  return { kube, access };
}

describe('addOrUpdateTaintOnNode', () => {
  it('adds the taint with one patch, reading the first copy from the cache', async () => {
    const { kube, access } = setup([{ key: 'other', effect: 'NoExecute' }]);
    await addOrUpdateTaintOnNode(access, 'node0', SHUTDOWN_TAINT);
    expect(kube.getNode('node0')?.spec?.taints).toEqual([
      { key: 'other', effect: 'NoExecute' },
      { key: TAINT_SHUTDOWN, effect: 'NoSchedule' },
    ]);
    expect(kube.actions.map((action) => action.verb)).toEqual(['patch']);
    expect(kube.actions[0]?.body).toMatchObject({ metadata: { resourceVersion: expect.any(String) } });
  });

  it('makes no write when the taint is already there', async () => {
    const { kube, access } = setup([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
    await addOrUpdateTaintOnNode(access, 'node0', SHUTDOWN_TAINT);
    expect(kube.actions).toEqual([]);
  });

  it('retries a conflict with a fresh GET', async () => {
    const { kube, access } = setup();
    kube.failNext({ verb: 'patch' }, conflict());
    await addOrUpdateTaintOnNode(access, 'node0', SHUTDOWN_TAINT);
    expect(kube.actions.map((action) => action.verb)).toEqual(['patch', 'get', 'patch']);
    expect(kube.getNode('node0')?.spec?.taints).toEqual([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
  });

  it('detects a concurrent change through the resourceVersion precondition', async () => {
    const { kube } = setup();
    // A cache that lags behind the server: the first patch carries a stale resourceVersion.
    const stale = kube.getNode('node0')!;
    await kube.nodes.patch('node0', { metadata: { labels: { changed: 'yes' } } }, 'merge');
    kube.clearActions();
    await addOrUpdateTaintOnNode({ nodes: kube.nodes, nodeStore: { get: () => stale, list: () => [stale] }, retry: noSleep }, 'node0', SHUTDOWN_TAINT);
    expect(kube.actions.map((action) => action.verb)).toEqual(['patch', 'get', 'patch']);
    expect(kube.getNode('node0')?.spec?.taints).toEqual([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
    expect(kube.getNode('node0')?.metadata?.labels).toEqual({ keep: 'me', changed: 'yes' });
  });
});

describe('removeTaintOffNode', () => {
  it('makes no API call when the given node lacks the taint', async () => {
    const { kube, access } = setup([{ key: TAINT_SHUTDOWN, effect: 'NoExecute' }]);
    await removeTaintOffNode(access, 'node0', kube.getNode('node0'), SHUTDOWN_TAINT);
    expect(kube.actions).toEqual([]);
  });

  it('removes the taint and drops an emptied list', async () => {
    const { kube, access } = setup([{ key: TAINT_SHUTDOWN, effect: 'NoSchedule' }]);
    await removeTaintOffNode(access, 'node0', kube.getNode('node0'), SHUTDOWN_TAINT);
    expect(kube.getNode('node0')?.spec?.taints ?? []).toEqual([]);
    expect(kube.actions.map((action) => action.verb)).toEqual(['patch']);
  });

  it('keeps other taints', async () => {
    const { kube, access } = setup([
      { key: 'a', effect: 'NoSchedule' },
      { key: TAINT_SHUTDOWN, effect: 'NoSchedule' },
    ]);
    await removeTaintOffNode(access, 'node0', undefined, SHUTDOWN_TAINT);
    expect(kube.getNode('node0')?.spec?.taints).toEqual([{ key: 'a', effect: 'NoSchedule' }]);
  });
});

describe('addOrUpdateLabelsOnNode', () => {
  it('patches only the labels that differ', async () => {
    const { kube, access } = setup();
    await addOrUpdateLabelsOnNode(access, 'node0', { keep: 'me', added: 'x' });
    expect(kube.getNode('node0')?.metadata?.labels).toEqual({ keep: 'me', added: 'x' });
    expect(kube.actions).toHaveLength(1);
    expect(kube.actions[0]).toMatchObject({ verb: 'patch', patchType: 'strategic', body: { metadata: { labels: { added: 'x' } } } });
  });

  it('reports failures in the upstream wording', async () => {
    const { kube, access } = setup();
    kube.failNext({ verb: 'patch' }, new KubeApiError('forbidden', 403, 'Forbidden'));
    await expect(addOrUpdateLabelsOnNode(access, 'node0', { added: 'x' })).rejects.toThrow('failed update labels for node node0: forbidden');
  });
});
