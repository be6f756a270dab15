import { silentLogger } from '@ccm/core/logging';
import { defaultLoadBalancerName } from '@ccm/core/provider';
import { startSandboxCloud, type SandboxCloud, type StartSandboxCloudOptions } from '@ccm/testing';
import type { ContractFixture, ContractInstance } from '@ccm/testing/contract';
import type { V1Service } from '@kubernetes/client-node';
import type { SandboxCloudConfig } from '../src/config/sandbox-cloud-config.js';
import { createSandboxCloud, type SandboxCloudDependencies, type SandboxCloudProvider } from '../src/sandbox-cloud.js';

export function sandboxConfig(url: string, overrides: Partial<SandboxCloudConfig> = {}): SandboxCloudConfig {
  return {
    url,
    clusterId: 'contract-cluster',
    region: '',
    requestTimeoutMs: 5_000,
    retries: 0,
    loadBalancer: { enabled: true, ingress: 'ip' },
    routes: { enabled: true },
    ...overrides,
  };
}

export interface SandboxFixture extends ContractFixture {
  provider: SandboxCloudProvider;
  sandbox: SandboxCloud;
  /** Instance id per Node name. */
  instanceIds: Map<string, string>;
}

/** A real sandbox cloud over HTTP and the sandbox provider pointed at it. */
export async function startSandboxFixture(
  options: { cloud?: StartSandboxCloudOptions; config?: Partial<SandboxCloudConfig>; dependencies?: Partial<SandboxCloudDependencies> } = {},
): Promise<SandboxFixture> {
  const sandbox = await startSandboxCloud(options.cloud);
  const provider = createSandboxCloud(sandboxConfig(sandbox.url, options.config), { logger: silentLogger, ...options.dependencies });
  const instanceIds = new Map<string, string>();
  const idOf = (instance: ContractInstance): string => instance.providerId.slice('sandbox://'.length);
  return {
    sandbox,
    instanceIds,
    provider,
    clusterName: 'kubernetes',
    cloud: {
      async createInstance(name) {
        const instance = await sandbox.createInstance({ name });
        instanceIds.set(instance.name, instance.id);
        return {
          nodeName: instance.name,
          providerId: `sandbox://${instance.id}`,
          expectedAddresses: instance.addresses.map(({ type, address }) => ({ type, address })),
          expectedInstanceType: instance.instanceType,
          expectedZone: instance.zone,
          expectedRegion: instance.region,
        };
      },
      stopInstance: async (instance) => void (await sandbox.stopInstance(idOf(instance))),
      startInstance: async (instance) => void (await sandbox.startInstance(idOf(instance))),
      deleteInstance: (instance) => sandbox.deleteInstance(idOf(instance)),
    },
    async readLoadBalancer(service: V1Service) {
      const loadBalancer = (await sandbox.listLoadBalancers()).find((candidate) => candidate.name === defaultLoadBalancerName(service));
      if (loadBalancer === undefined) return undefined;
      const instances = await sandbox.listInstances();
      return {
        backendNodeNames: loadBalancer.backendInstanceIds.map((id) => instances.find((instance) => instance.id === id)?.name ?? id).sort(),
        ports: loadBalancer.listeners.map((listener) => listener.port).sort((left, right) => left - right),
      };
    },
    cleanup: () => sandbox.close(),
  };
}
