import type { CloudProvider } from './cloud-provider.js';
import type { InstancesV2 } from './instances.js';
import type { LoadBalancer } from './load-balancer.js';
import type { Routes } from './routes.js';

/** The capabilities a provider's composition root built; an undefined one is not offered. */
export interface OfferedCapabilities {
  instancesV2?: InstancesV2 | undefined;
  loadBalancer?: LoadBalancer | undefined;
  routes?: Routes | undefined;
}

/**
 * A `CloudProvider` over the capabilities its composition root built. A provider's class extends
 * it with what only it has (its config, its API budget, an extension controller's cloud steps,
 * `initialize`). Instances (v1), Zones and Clusters are not offered: every controller uses
 * InstancesV2, as upstream's newer providers do.
 */
export class ComposedCloudProvider<Offered extends OfferedCapabilities> implements CloudProvider {
  readonly providerName: string;
  readonly #offered: Offered;
  readonly #hasClusterId: () => boolean;

  /** `hasClusterId`: upstream `HasClusterID`, true unless the provider can run without one. */
  constructor(providerName: string, offered: Offered, hasClusterId: () => boolean = () => true) {
    this.providerName = providerName;
    this.#offered = offered;
    this.#hasClusterId = hasClusterId;
  }

  instancesV2(): Offered['instancesV2'] {
    return this.#offered.instancesV2;
  }

  loadBalancer(): Offered['loadBalancer'] {
    return this.#offered.loadBalancer;
  }

  routes(): Offered['routes'] {
    return this.#offered.routes;
  }

  hasClusterId(): boolean {
    return this.#hasClusterId();
  }
}
