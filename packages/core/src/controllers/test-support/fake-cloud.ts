/**
 * The fake CloudProvider of the controllers' tests (after upstream `fake/fake.go`), every
 * capability: Instances, InstancesV2 and Zones with canned answers, error injection per method, an
 * artificial latency, and a call log with in-flight tracking; LoadBalancer and Routes are the
 * in-memory `FakeLoadBalancer` and `FakeRoutes` (or any other) given as options.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { CloudProvider } from '../../provider/cloud-provider.js';
import type { InstanceMetadata, Instances, InstancesV2, Zone, Zones } from '../../provider/instances.js';
import type { LoadBalancer } from '../../provider/load-balancer.js';
import type { NodeAddress } from '../../provider/node-address.js';
import type { Routes } from '../../provider/routes.js';

export interface FakeCloudOptions {
  providerName?: string;
  /** Enables InstancesV2 (default false). */
  enableInstancesV2?: boolean;
  /** Legacy Instances support (default true). */
  enableInstances?: boolean;
  /** Zones support (default true). */
  enableZones?: boolean;
  /** Latency of every Instances, InstancesV2 and Zones call. */
  requestDelayMs?: number;
  /** The LoadBalancer capability (default none), e.g. a `FakeLoadBalancer`. */
  loadBalancer?: LoadBalancer;
  /** The Routes capability (default none), e.g. a `FakeRoutes`. */
  routes?: Routes;

  /** Addresses answered for every node (V1 and V2). */
  addresses?: NodeAddress[];
  /** Instance type by provider ID or node name (V1 and V2). */
  instanceTypes?: Record<string, string>;
  zone?: Zone;

  /** V1 `instanceId` answers by node name (upstream `ExtID`); a missing name answers ''. */
  instanceIds?: Record<string, string>;
  /** V1 `instanceId` errors by node name (upstream `ExtIDErr`). */
  instanceIdErrors?: Record<string, Error>;
  addressesByProviderIdError?: Error;
  addressesByNameError?: Error;
  instanceTypeByProviderIdError?: Error;
  instanceTypeByNameError?: Error;
  zoneByProviderIdError?: Error;
  zoneByNameError?: Error;

  /** `instanceExists` / `instanceExistsByProviderId` answer (default false, as upstream). */
  exists?: boolean;
  existsError?: Error;
  /** `instanceShutdown` / `instanceShutdownByProviderId` answer (default false). */
  shutdown?: boolean;
  shutdownError?: Error;

  /** V2 metadata provider IDs by node name (upstream `ProviderID`); a missing name answers ''. */
  providerIds?: Record<string, string>;
  additionalLabels?: Record<string, string>;
  metadataError?: Error;
  /** Replaces the whole V2 metadata answer. */
  overrideInstanceMetadata?: (node: V1Node) => InstanceMetadata | undefined | Promise<InstanceMetadata | undefined>;
}

export interface FakeCloudCall {
  method: string;
  /** Node name or provider ID the call was about. */
  target: string;
}

export class FakeCloud implements CloudProvider {
  readonly providerName: string;
  readonly options: FakeCloudOptions;
  readonly #calls: FakeCloudCall[] = [];
  #inFlight = 0;
  #maxInFlight = 0;
  readonly #instancesV2: InstancesV2;
  readonly #instances: Instances;
  readonly #zones: Zones;

  constructor(options: FakeCloudOptions = {}) {
    this.options = options;
    this.providerName = options.providerName ?? 'fake';
    this.#instancesV2 = {
      instanceExists: (node) => this.#call('instance-exists', node.metadata?.name ?? '', () => this.#answer(options.exists ?? false, options.existsError)),
      instanceShutdown: (node) => this.#call('instance-shutdown', node.metadata?.name ?? '', () => this.#answer(options.shutdown ?? false, options.shutdownError)),
      instanceMetadata: (node) =>
        this.#call('instance-metadata', node.metadata?.name ?? '', async () => {
          if (options.overrideInstanceMetadata !== undefined) return options.overrideInstanceMetadata(node);
          if (options.metadataError !== undefined) throw options.metadataError;
          const name = node.metadata?.name ?? '';
          const zone = options.zone ?? { failureDomain: '', region: '' };
          return {
            providerId: options.providerIds?.[name] ?? '',
            instanceType: options.instanceTypes?.[node.spec?.providerID ?? ''] ?? options.instanceTypes?.[name] ?? '',
            nodeAddresses: structuredClone(options.addresses ?? []),
            zone: zone.failureDomain,
            region: zone.region,
            ...(options.additionalLabels === undefined ? {} : { additionalLabels: { ...options.additionalLabels } }),
          };
        }),
    };
    this.#instances = {
      nodeAddresses: (nodeName) => this.#call('node-addresses', nodeName, () => this.#answer(structuredClone(options.addresses ?? []), options.addressesByNameError)),
      nodeAddressesByProviderId: (providerId) =>
        this.#call('node-addresses-by-provider-id', providerId, () => this.#answer(structuredClone(options.addresses ?? []), options.addressesByProviderIdError)),
      instanceId: (nodeName) =>
        this.#call('instance-id', nodeName, () => this.#answer(options.instanceIds?.[nodeName] ?? '', options.instanceIdErrors?.[nodeName])),
      instanceType: (nodeName) => this.#call('instance-type', nodeName, () => this.#answer(options.instanceTypes?.[nodeName] ?? '', options.instanceTypeByNameError)),
      instanceTypeByProviderId: (providerId) =>
        this.#call('instance-type-by-provider-id', providerId, () => this.#answer(options.instanceTypes?.[providerId] ?? '', options.instanceTypeByProviderIdError)),
      addSshKeyToAllInstances: () => this.#call('add-ssh-key', '', () => this.#answer(undefined, undefined)),
      currentNodeName: (hostname) => this.#call('current-node-name', hostname, () => this.#answer(hostname, undefined)),
      instanceExistsByProviderId: (providerId) =>
        this.#call('instance-exists-by-provider-id', providerId, () => this.#answer(options.exists ?? false, options.existsError)),
      instanceShutdownByProviderId: (providerId) =>
        this.#call('instance-shutdown-by-provider-id', providerId, () => this.#answer(options.shutdown ?? false, options.shutdownError)),
    };
    this.#zones = {
      getZone: () => this.#call('get-zone', '', () => this.#answer(options.zone ?? { failureDomain: '', region: '' }, undefined)),
      getZoneByProviderId: (providerId) =>
        this.#call('get-zone-by-provider-id', providerId, () => this.#answer(options.zone ?? { failureDomain: '', region: '' }, options.zoneByProviderIdError)),
      getZoneByNodeName: (nodeName) =>
        this.#call('get-zone-by-node-name', nodeName, () => this.#answer(options.zone ?? { failureDomain: '', region: '' }, options.zoneByNameError)),
    };
  }

  /** Every call so far, in order. */
  get calls(): readonly FakeCloudCall[] {
    return this.#calls;
  }

  /** The most calls that were in flight at once. */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  callCount(method: string, target?: string): number {
    return this.#calls.filter((call) => call.method === method && (target === undefined || call.target === target)).length;
  }

  async #answer<T>(value: T, error: Error | undefined): Promise<T> {
    if (error !== undefined) throw error;
    return value;
  }

  async #call<T>(method: string, target: string, body: () => Promise<T>): Promise<T> {
    this.#calls.push({ method, target });
    this.#inFlight++;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    try {
      if (this.options.requestDelayMs !== undefined && this.options.requestDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, this.options.requestDelayMs));
      }
      return await body();
    } finally {
      this.#inFlight--;
    }
  }

  loadBalancer() {
    return this.options.loadBalancer;
  }
  instances() {
    return this.options.enableInstances === false ? undefined : this.#instances;
  }
  instancesV2() {
    return this.options.enableInstancesV2 === true ? this.#instancesV2 : undefined;
  }
  zones() {
    return this.options.enableZones === false ? undefined : this.#zones;
  }
  clusters() {
    return undefined;
  }
  routes() {
    return this.options.routes;
  }
  hasClusterId() {
    return true;
  }
}

/** The fake cloud with only the given capabilities: no Instances, InstancesV2 nor Zones. */
export function fakeCloudProvider(capabilities: { loadBalancer?: LoadBalancer; routes?: Routes; providerName?: string }): FakeCloud {
  return new FakeCloud({ ...capabilities, enableInstances: false, enableInstancesV2: false, enableZones: false });
}
