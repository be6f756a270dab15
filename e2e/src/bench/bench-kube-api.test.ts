import { describe, expect, it } from 'vitest';
import { resourceOfPath } from './bench-kube-api.js';

describe('resourceOfPath', () => {
  it.each([
    ['/api/v1/nodes/n1', 'nodes'],
    ['/api/v1/nodes/n1/status', 'nodes/status'],
    ['/api/v1/namespaces/default/events', 'events'],
    ['/api/v1/namespaces/default/events/e1?x=1', 'events'],
    ['/api/v1/namespaces/default/services/s/status', 'services/status'],
    ['/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/ccm', 'leases'],
    ['/api/v1/namespaces', 'namespaces'],
  ])('%s -> %s', (path, resource) => {
    expect(resourceOfPath(path)).toBe(resource);
  });
});
