import { describe, expect, it } from 'vitest';
import { isEmulated } from './emulator-replay.js';

describe('isEmulated', () => {
  it.each<[string, string, boolean]>([
    ['POST', '/apis/authentication.k8s.io/v1/tokenreviews', false],
    ['POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', false],
    ['GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication', false],
    ['GET', '/api/v1/namespaces/kube-system/configmaps?fieldSelector=metadata.name%3Dextension-apiserver-authentication&limit=500', false],
    ['GET', '/api/v1/namespaces/kube-system/configmaps?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dextension-apiserver-authentication&watch=true', false],
    ['POST', '/api/v1/namespaces/monitoring/serviceaccounts', false],
    ['POST', '/api/v1/namespaces/monitoring/serviceaccounts/prometheus/token', false],
    ['POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', false],
    // Everything the controllers and the harness otherwise send is replayed.
    ['GET', '/api/v1/namespaces/kube-system/configmaps/other', true],
    ['GET', '/api/v1/namespaces/kube-system/configmaps', true],
    ['PATCH', '/api/v1/nodes/n1', true],
    ['POST', '/api/v1/namespaces/default/events', true],
    ['GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/cloud-controller-manager', true],
  ])('%s %s -> %s', (method, url, emulated) => {
    expect(isEmulated({ method, url })).toBe(emulated);
  });
});
