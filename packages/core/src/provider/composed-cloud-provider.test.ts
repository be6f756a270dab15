import { describe, expect, it } from 'vitest';
import { ComposedCloudProvider } from './composed-cloud-provider.js';
import type { InstancesV2 } from './instances.js';
import type { Routes } from './routes.js';

const instances = { instanceExists: () => Promise.resolve(true) } as unknown as InstancesV2;
const routes = { listRoutes: () => Promise.resolve([]) } as unknown as Routes;

describe('ComposedCloudProvider', () => {
  it('offers the capabilities it was given and leaves the others out', () => {
    const provider = new ComposedCloudProvider('acme', { instancesV2: instances, loadBalancer: undefined, routes });
    expect(provider.providerName).toBe('acme');
    expect(provider.instancesV2()).toBe(instances);
    expect(provider.loadBalancer()).toBeUndefined();
    expect(provider.routes()).toBe(routes);
    expect('instances' in provider).toBe(false);
    expect('zones' in provider).toBe(false);
    expect('clusters' in provider).toBe(false);
  });

  it('has a cluster ID unless told otherwise, asked each time', () => {
    expect(new ComposedCloudProvider('acme', {}).hasClusterId()).toBe(true);
    let clusterId = '';
    const provider = new ComposedCloudProvider('acme', {}, () => clusterId !== '');
    expect(provider.hasClusterId()).toBe(false);
    clusterId = 'kubernetes';
    expect(provider.hasClusterId()).toBe(true);
  });

  it('lets a provider class add its own accessors and initialize', () => {
    class AcmeCloud extends ComposedCloudProvider<{ routes: Routes }> {
      initialized = false;
      constructor() {
        super('acme', { routes });
      }
      initialize(): void {
        this.initialized = true;
      }
    }
    const cloud = new AcmeCloud();
    cloud.initialize();
    expect(cloud.initialized).toBe(true);
    expect(cloud.routes()).toBe(routes);
  });
});
