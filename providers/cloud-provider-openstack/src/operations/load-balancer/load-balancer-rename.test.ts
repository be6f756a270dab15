import { describe, expect, it } from 'vitest';
import { clusterNameOf, hasOldClusterName, isServiceNameUnderOldClusterName, replaceClusterName } from './load-balancer-rename.js';

describe('clusterNameOf (upstream getClusterName)', () => {
  const cases: Array<[string, string | undefined, 'listener' | 'pool' | 'monitor' | undefined, string | undefined]> = [
    ['a load balancer', 'kube_service_old-cluster_default_web', undefined, 'old-cluster'],
    ['a name cut before its _<name>', 'kube_service_old-cluster_default', undefined, 'old-cluster'],
    ['a listener', 'listener_0_kube_service_old_ns_web', 'listener', 'old'],
    ['a pool of index 12', 'pool_12_kube_service_old_ns_web', 'pool', 'old'],
    ['a monitor', 'monitor_1_kube_service_c_ns_web', 'monitor', 'c'],
    ['a cluster name with _', 'kube_service_my_cluster_ns_web', undefined, 'my_cluster'],
    ['a cluster name with _ in a name cut before its _<name> is read short, as upstream', 'kube_service_my_cluster_ns', undefined, 'my'],
    ['not a CCM name', 'my-load-balancer', undefined, undefined],
    ['a legacy name', 'a1234', undefined, undefined],
  ];
  it.each(cases)('%s', (_name, objectName, child, expected) => {
    expect(clusterNameOf(objectName ?? '', child)).toBe(expected);
  });
});

describe('replaceClusterName', () => {
  it('replaces the first occurrence after kube_service_, and cuts to 255', () => {
    expect(replaceClusterName('old', 'new', 'kube_service_old_ns_old')).toBe('kube_service_new_ns_old');
    expect(replaceClusterName('old', 'new', 'listener_0_kube_service_old_ns_web')).toBe('listener_0_kube_service_new_ns_web');
    expect(replaceClusterName('c', 'x'.repeat(300), 'kube_service_c_ns_web')).toHaveLength(255);
  });
});

describe('which load balancers are renamed', () => {
  it('one named by a CCM under another cluster name; for a Service, only its own namespace and name', () => {
    expect(hasOldClusterName('kube_service_old_ns_web', 'new')).toBe(true);
    expect(hasOldClusterName('kube_service_new_ns_web', 'new')).toBe(false);
    expect(hasOldClusterName('hand-made', 'new')).toBe(false);
    expect(isServiceNameUnderOldClusterName('kube_service_old_ns_web', 'new', 'kube_service_new_ns_web')).toBe(true);
    expect(isServiceNameUnderOldClusterName('kube_service_old_ns_other', 'new', 'kube_service_new_ns_web')).toBe(false);
    expect(isServiceNameUnderOldClusterName('kube_service_new_ns_web', 'new', 'kube_service_new_ns_web')).toBe(false);
  });
});
