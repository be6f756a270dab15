/**
 * A capability the provider does not declare is upstream's `(nil, false)`: every controller and
 * helper must behave exactly as with an accessor that returns `undefined`.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.js';
import { getInstanceProviderId } from '../node-helpers/instance-provider-id.js';
import type { CloudProvider } from '../provider/cloud-provider.js';
import type { Instances, InstancesV2 } from '../provider/instances.js';
import type { ControllerConstructor } from './controller.js';
import { createCloudNodeLifecycleController } from './node-lifecycle/cloud-node-lifecycle-controller.js';
import { createCloudNodeController } from './node/cloud-node-controller.js';
import { getInstanceMetadata, getInstanceNodeAddresses } from './node/instance-metadata.js';
import { createRouteController } from './route/route-controller.js';
import { createServiceController } from './service/service-controller.js';
import { createTestControllerContext } from './service/test-support/controller-context.js';

type Capability = 'loadBalancer' | 'instances' | 'instancesV2' | 'zones' | 'clusters' | 'routes';
const CAPABILITIES: readonly Capability[] = ['loadBalancer', 'instances', 'instancesV2', 'zones', 'clusters', 'routes'];

const instancesV2: InstancesV2 = {
  instanceExists: async () => true,
  instanceShutdown: async () => false,
  instanceMetadata: async () => ({ providerId: 'test://n1', instanceType: 'small', nodeAddresses: [{ type: 'InternalIP', address: '10.0.0.1' }], zone: 'z1', region: 'r1' }),
};

const instances: Instances = {
  nodeAddresses: async () => [{ type: 'InternalIP', address: '10.0.0.2' }],
  nodeAddressesByProviderId: async () => [{ type: 'InternalIP', address: '10.0.0.2' }],
  instanceId: async () => 'i-1',
  instanceType: async () => 'medium',
  instanceTypeByProviderId: async () => 'medium',
  addSshKeyToAllInstances: async () => undefined,
  currentNodeName: async (hostname) => hostname,
  instanceExistsByProviderId: async () => true,
  instanceShutdownByProviderId: async () => false,
};

/** The same provider twice: capabilities it lacks are `() => undefined` stubs, or not declared at all. */
function clouds(present: Partial<Record<Capability, unknown>>): Array<{ shape: string; cloud: CloudProvider }> {
  const stubbed: Record<string, unknown> = { providerName: 'test', hasClusterId: () => true };
  const declared: Record<string, unknown> = { providerName: 'test', hasClusterId: () => true };
  for (const capability of CAPABILITIES) {
    const value = present[capability];
    stubbed[capability] = () => value;
    if (value !== undefined) declared[capability] = () => value;
  }
  return [
    { shape: 'returns undefined', cloud: stubbed as unknown as CloudProvider },
    { shape: 'is not declared', cloud: declared as unknown as CloudProvider },
  ];
}

function outcome(constructor: ControllerConstructor, cloud: CloudProvider): string {
  const context = createTestControllerContext(cloud, new InMemoryKubeAccess(), { clusterCidrs: ['10.244.0.0/16'] });
  const built = constructor(context);
  return 'skipped' in built ? `skipped: ${built.skipped}` : `runs: ${built.name}`;
}

const node: V1Node = { metadata: { name: 'n1' }, spec: {} };

describe('a capability the provider does not declare', () => {
  describe.each([
    { name: 'no capability', present: {} },
    { name: 'InstancesV2 only', present: { instancesV2 } },
    { name: 'Instances (v1) only', present: { instances } },
    { name: 'everything but load balancers and routes', present: { instances, instancesV2, zones: { getZone: async () => ({ failureDomain: 'z1', region: 'r1' }), getZoneByProviderId: async () => ({ failureDomain: 'z1', region: 'r1' }), getZoneByNodeName: async () => ({ failureDomain: 'z1', region: 'r1' }) } } },
  ])('$name', ({ present }) => {
    const [stubbed, declared] = clouds(present);

    it.each([
      { controller: 'cloud-node-controller', constructor: createCloudNodeController },
      { controller: 'cloud-node-lifecycle-controller', constructor: createCloudNodeLifecycleController },
      { controller: 'service-lb-controller', constructor: createServiceController },
      { controller: 'node-route-controller', constructor: createRouteController },
    ])('$controller is built or skipped the same way', ({ constructor }) => {
      expect(outcome(constructor, declared!.cloud)).toBe(outcome(constructor, stubbed!.cloud));
    });

    it('node metadata, addresses and provider ID come out the same', async () => {
      const settle = async (call: () => Promise<unknown>) => call().then((value) => ({ value }), (error: unknown) => ({ error: String(error) }));
      for (const call of [
        (cloud: CloudProvider) => getInstanceMetadata(cloud, node, silentLogger),
        (cloud: CloudProvider) => getInstanceNodeAddresses(cloud, node),
        (cloud: CloudProvider) => getInstanceProviderId(cloud, 'n1'),
      ]) {
        expect(await settle(() => call(declared!.cloud))).toEqual(await settle(() => call(stubbed!.cloud)));
      }
    });
  });

  it.each([
    { present: {}, expected: { 'cloud-node-controller': 'skipped: cloud provider does not support instances', 'service-lb-controller': 'skipped: the cloud provider does not support external load balancers' } },
    { present: { instancesV2 }, expected: { 'cloud-node-controller': 'runs: cloud-node-controller', 'service-lb-controller': 'skipped: the cloud provider does not support external load balancers' } },
  ])('reads as unsupported, with upstream messages ($present)', ({ present, expected }) => {
    const [, declared] = clouds(present);
    expect(outcome(createCloudNodeController, declared!.cloud)).toBe(expected['cloud-node-controller']);
    expect(outcome(createServiceController, declared!.cloud)).toBe(expected['service-lb-controller']);
    expect(outcome(createRouteController, declared!.cloud)).toBe(
      'skipped: configure-cloud-routes is set, but cloud provider does not support routes. Will not configure cloud provider routes.',
    );
  });
});
