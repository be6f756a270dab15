/**
 * The external network load balancer (upstream `gce_loadbalancer_external.go`): a regional
 * address held during the sync, the `k8s-fw-<lb>` traffic firewall, the legacy HTTP health check
 * (shared `k8s-<cluster ID>-node`, or the Service's own for externalTrafficPolicy Local) and its
 * firewall, the target pool of the hosts and the forwarding rule, created last. Idempotent steps:
 * a second sync changes nothing; every change is a diff of what the cloud has.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { InvalidServiceConfigurationError, defaultLoadBalancerName, type LoadBalancerStatus } from '@ccm/core/provider';
import type { Logger } from '@ccm/core/logging';
import { GceCloudStateError, isGceErrorKind } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, GceFirewall, GceForwardingRule, GceInstance } from '../../ports/compute-port.js';
import type { InstanceLocator } from '../instance-locator.js';
import type { ResourceLinks } from '../resource-links.js';
import { firewallNeedsUpdate, firewallPorts, healthCheckFirewallNeedsUpdate, forwardingRuleNeedsRecreation, planHealthCheck, planTargetPoolMembers, targetPoolNeedsRecreation } from './external-planners.js';
import type { FirewallWrites } from './firewall-writes.js';
import { hostInstances, hostTags } from './host-instances.js';
import {
  FIREWALL_PRIORITY,
  firewallDescription,
  healthCheckFirewallName,
  L4_HEALTH_CHECK_SOURCE_RANGES,
  nodeHealthCheckName,
  serviceDescription,
  trafficFirewallName,
} from './load-balancer-names.js';
import { buildExternalLoadBalancerSpec, type ExternalLoadBalancerSpec, type HealthCheckSpec } from './load-balancer-spec.js';

/** Instances in the insert of a target pool; the rest are added in batches (upstream `maxTargetPoolCreateInstances`). */
export const MAX_TARGET_POOL_CREATE_INSTANCES = 200;
/** Instances per addInstance/removeInstance call (upstream `maxInstancesPerTargetPoolUpdate`). */
export const MAX_INSTANCES_PER_TARGET_POOL_UPDATE = 1000;
/** Syncs started again after a stale fingerprint (HTTP 412), re-reading everything. */
export const PRECONDITION_RETRIES = 3;

export interface ExternalLoadBalancerContext {
  compute: ComputePort;
  /** Firewall writes (a 403 on a Shared VPC becomes an event with the gcloud command). */
  firewalls: FirewallWrites;
  links: ResourceLinks;
  locator: InstanceLocator;
  region: string;
  networkName: string;
  nodeTags: readonly string[];
  /** Source ranges of the health-check firewall (`--cloud-provider-gce-lb-src-cidrs`); default `L4_HEALTH_CHECK_SOURCE_RANGES`. */
  healthCheckSourceRanges?: readonly string[];
  clusterId: () => Promise<string>;
  logger: Logger;
}

const serviceNameOf = (service: V1Service): string => `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;

/**
 * Owned: no description (as upstream writes none on some) or one naming this Service; `alsoNamed`
 * is the load balancer name, which upstream's per-Service HTTP health check names instead
 * (`makeHealthCheckDescription(loadBalancerName)`; the name holds the Service's UID).
 */
function ownedBy(description: string | undefined, serviceName: string, alsoNamed?: string): boolean {
  if (description === undefined || description === '' || description.includes(`"kubernetes.io/service-name":"${serviceName}"`)) return true;
  return alsoNamed !== undefined && description.includes(`"kubernetes.io/service-name":"${alsoNamed}"`);
}

async function ignoring<T>(kinds: ReadonlyArray<'NotFound' | 'AlreadyExists' | 'InUse'>, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (kinds.some((kind) => isGceErrorKind(error, kind))) return undefined;
    throw error;
  }
}

export class ExternalLoadBalancerOperations {
  readonly #context: ExternalLoadBalancerContext;

  constructor(context: ExternalLoadBalancerContext) {
    this.#context = context;
  }

  async status(service: V1Service, options?: CallOptions): Promise<LoadBalancerStatus | undefined> {
    const rule = await this.#context.compute.getForwardingRule(this.#context.region, defaultLoadBalancerName(service), options);
    if (rule === undefined || !ownedBy(rule.description, serviceNameOf(service))) return undefined;
    return { ingress: rule.IPAddress ? [{ ip: rule.IPAddress }] : [] };
  }

  /**
   * Whether a resource of this Service's load balancer other than the forwarding rule is left:
   * the address held during a sync, the `k8s-fw-` firewall, the target pool, the Service's own
   * health check and its firewall. The forwarding rule is created last, so a sync cut short (a
   * leader killed mid-sync, a failing step) leaves these without it; the Service controller
   * deletes only a load balancer that exists, so without this they would leak when the Service
   * is deleted before a sync completes (upstream checks its ILB finalizers for the same reason).
   */
  async hasRemnants(service: V1Service, options?: CallOptions): Promise<boolean> {
    const { compute, region } = this.#context;
    const name = defaultLoadBalancerName(service);
    const serviceName = serviceNameOf(service);
    const reads: Array<() => Promise<{ description?: string } | undefined>> = [
      () => compute.getAddress(region, name, options),
      () => compute.getFirewall(trafficFirewallName(name), options),
      () => compute.getTargetPool(region, name, options),
      () => compute.getHttpHealthCheck(name, options),
      async () => compute.getFirewall(healthCheckFirewallName(name, await this.#context.clusterId(), false), options),
    ];
    for (const read of reads) {
      const found = await read();
      if (found !== undefined && ownedBy(found.description, serviceName, name)) return true;
    }
    return false;
  }

  async ensure(service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const spec = buildExternalLoadBalancerSpec(service, await this.#context.clusterId());
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#ensure(service, spec, nodes, options);
      } catch (error) {
        if (!isGceErrorKind(error, 'PreconditionFailed') || attempt >= PRECONDITION_RETRIES) throw error;
        this.#context.logger.info('stale fingerprint, reading the load balancer again', { service: spec.serviceName, attempt });
      }
    }
  }

  async #ensure(service: V1Service, spec: ExternalLoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const { compute, region } = this.#context;
    const hosts = await hostInstances(this.#context.locator, nodes, options);
    const tags = hostTags(this.#context.nodeTags, hosts);
    let rule = await compute.getForwardingRule(region, spec.name, options);
    if (rule !== undefined && spec.networkTierExplicit && (rule.networkTier ?? 'PREMIUM') !== spec.networkTier) {
      this.#context.logger.info('network tier changed: deleting the forwarding rule', { service: spec.serviceName, from: rule.networkTier, to: spec.networkTier });
      await ignoring(['NotFound'], () => compute.deleteForwardingRule(region, spec.name, options));
      rule = undefined;
    }
    const address = await this.#holdAddress(spec, rule, options);
    await this.#ensureFirewall(service, this.#trafficFirewall(spec, address.ip, tags), options, firewallNeedsUpdate);
    const healthCheckUrl = await this.#ensureHealthCheck(spec.healthCheck, options);
    await this.#ensureFirewall(service, this.#healthCheckFirewall(spec, address.ip, tags), options, healthCheckFirewallNeedsUpdate);
    const targetPool = await this.#ensureTargetPool(spec, hosts, healthCheckUrl, rule, options);
    rule = targetPool.rule;
    const desiredRule = {
      IPAddress: address.ip,
      IPProtocol: spec.protocol,
      portRange: spec.portRange,
      target: this.#context.links.targetPool(region, spec.name),
      networkTier: spec.networkTier,
    };
    if (rule !== undefined && forwardingRuleNeedsRecreation(rule, desiredRule)) {
      await ignoring(['NotFound'], () => compute.deleteForwardingRule(region, spec.name, options));
      rule = undefined;
    }
    if (rule === undefined) {
      const created: GceForwardingRule = { name: spec.name, description: serviceDescription(spec.serviceName), loadBalancingScheme: 'EXTERNAL', ...desiredRule };
      await ignoring(['AlreadyExists'], () => compute.insertForwardingRule(region, created, options));
    }
    if (address.release) await this.#releaseAddress(spec, options);
    // Upstream deletes the other policy's check only with a target pool it recreates (`tpExists &&
    // tpNeedsUpdate`: the pool pointed at that check), not on every sync.
    if (targetPool.recreated) await this.#deleteOtherHealthCheck(service, spec, options);
    return { ingress: [{ ip: address.ip }] };
  }

  /** Node changes: only the target pool's members (as upstream). */
  async update(service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const { compute, region } = this.#context;
    const name = defaultLoadBalancerName(service);
    const pool = await compute.getTargetPool(region, name, options);
    if (pool === undefined) return;
    const hosts = await hostInstances(this.#context.locator, nodes, options);
    await this.#updateMembers(name, hosts, pool.instances, options);
  }

  async delete(service: V1Service, options?: CallOptions): Promise<void> {
    const { compute, firewalls, region, logger } = this.#context;
    const name = defaultLoadBalancerName(service);
    const serviceName = serviceNameOf(service);
    const clusterId = await this.#context.clusterId();
    const owned = async <T extends { description?: string }>(kind: string, read: () => Promise<T | undefined>, remove: () => Promise<void>): Promise<boolean> => {
      const found = await read();
      if (found === undefined) return true;
      if (!ownedBy(found.description, serviceName, name)) {
        logger.warn(`not deleting ${kind} ${name}: its description names another owner`, { service: serviceName, description: found.description });
        return false;
      }
      await ignoring(['NotFound'], remove);
      return true;
    };
    await owned('firewall', () => compute.getFirewall(trafficFirewallName(name), options), () => firewalls.delete(service, trafficFirewallName(name), options));
    await owned('forwarding rule', () => compute.getForwardingRule(region, name, options), () => compute.deleteForwardingRule(region, name, options));
    await owned('address', () => compute.getAddress(region, name, options), () => compute.deleteAddress(region, name, options));
    await owned('target pool', () => compute.getTargetPool(region, name, options), () => compute.deleteTargetPool(region, name, options));
    await owned('health check', () => compute.getHttpHealthCheck(name, options), () => compute.deleteHttpHealthCheck(name, options));
    await owned('firewall', () => compute.getFirewall(healthCheckFirewallName(name, clusterId, false), options), () => firewalls.delete(service, healthCheckFirewallName(name, clusterId, false), options));
    await this.#deleteSharedHealthCheck(service, clusterId, options);
  }

  /** The shared node check and its firewall, unless another target pool still uses the check. */
  async #deleteSharedHealthCheck(service: V1Service, clusterId: string, options?: CallOptions): Promise<void> {
    const { compute } = this.#context;
    try {
      await compute.deleteHttpHealthCheck(nodeHealthCheckName(clusterId), options);
    } catch (error) {
      if (isGceErrorKind(error, 'InUse')) return;
      if (!isGceErrorKind(error, 'NotFound')) throw error;
    }
    await this.#context.firewalls.delete(service, healthCheckFirewallName('', clusterId, true), options);
  }

  /** After an ETP switch, the check of the other policy (and its firewall) is no longer used by this Service. */
  async #deleteOtherHealthCheck(service: V1Service, spec: ExternalLoadBalancerSpec, options?: CallOptions): Promise<void> {
    const { compute } = this.#context;
    if (spec.healthCheck.shared) {
      const own = await compute.getHttpHealthCheck(spec.name, options);
      if (own !== undefined && ownedBy(own.description, spec.serviceName, spec.name)) {
        await ignoring(['NotFound', 'InUse'], () => compute.deleteHttpHealthCheck(spec.name, options));
        await this.#context.firewalls.delete(service, healthCheckFirewallName(spec.name, '', false), options);
      }
    } else {
      const clusterId = await this.#context.clusterId();
      if ((await compute.getHttpHealthCheck(nodeHealthCheckName(clusterId), options)) !== undefined) await this.#deleteSharedHealthCheck(service, clusterId, options);
    }
  }

  /**
   * The IP of the load balancer, held by a regional address while the sync runs (upstream
   * `ensureStaticIP`): the requested `loadBalancerIP` (a reserved address, user-owned and never
   * released, or the forwarding rule's current IP), else the forwarding rule's IP promoted to an
   * address named after the load balancer, else a new address of that name.
   */
  async #holdAddress(spec: ExternalLoadBalancerSpec, rule: GceForwardingRule | undefined, options?: CallOptions): Promise<{ ip: string; release: boolean }> {
    const { compute, region } = this.#context;
    if (spec.requestedIp !== undefined) {
      const reserved = await compute.findAddressByIp(region, spec.requestedIp, options);
      if (reserved !== undefined) {
        if (spec.networkTierExplicit && reserved.networkTier !== undefined && reserved.networkTier !== spec.networkTier) {
          throw new InvalidServiceConfigurationError(`spec.loadBalancerIP=${spec.requestedIp}: the reserved address ${reserved.name} is in tier ${reserved.networkTier}, not ${spec.networkTier}`, {
            annotation: 'spec.loadBalancerIP',
            value: spec.requestedIp,
          });
        }
        return { ip: spec.requestedIp, release: reserved.name === spec.name };
      }
      // The forwarding rule's own (ephemeral) IP: held as a static address like any other below
      // (upstream ensureStaticIP promotes it), so a recreation of the rule keeps it.
      if (rule?.IPAddress !== spec.requestedIp) {
        throw new InvalidServiceConfigurationError(`spec.loadBalancerIP=${spec.requestedIp}: no static address with this IP is reserved in region ${region}`, {
          annotation: 'spec.loadBalancerIP',
          value: spec.requestedIp,
        });
      }
    }
    let held = await compute.getAddress(region, spec.name, options);
    if (held !== undefined && spec.networkTierExplicit && (held.networkTier ?? 'PREMIUM') !== spec.networkTier) {
      await ignoring(['NotFound'], () => compute.deleteAddress(region, spec.name, options));
      held = undefined;
    }
    if (held === undefined) {
      await ignoring(['AlreadyExists'], () =>
        compute.insertAddress(
          region,
          { name: spec.name, description: serviceDescription(spec.serviceName), networkTier: spec.networkTier, ...(rule?.IPAddress ? { address: rule.IPAddress } : {}) },
          options,
        ),
      );
      held = await compute.getAddress(region, spec.name, options);
    }
    if (held?.address === undefined) throw new GceCloudStateError(`address ${spec.name} in ${region} has no IP`);
    return { ip: held.address, release: true };
  }

  async #releaseAddress(spec: ExternalLoadBalancerSpec, options?: CallOptions): Promise<void> {
    try {
      await this.#context.compute.deleteAddress(this.#context.region, spec.name, options);
    } catch (error) {
      if (isGceErrorKind(error, 'NotFound')) return;
      if (isGceErrorKind(error, 'InUse')) {
        this.#context.logger.verbose(2, 'the held address is in use; it is released with the load balancer', { service: spec.serviceName, address: spec.name });
        return;
      }
      throw error;
    }
  }

  #trafficFirewall(spec: ExternalLoadBalancerSpec, ip: string, tags: string[]): GceFirewall {
    return {
      name: trafficFirewallName(spec.name),
      network: this.#context.links.network(this.#context.networkName),
      description: firewallDescription(spec.serviceName, ip),
      sourceRanges: spec.sourceRanges,
      destinationRanges: [ip],
      targetTags: tags,
      allowed: [{ IPProtocol: spec.protocol.toLowerCase(), ports: firewallPorts(spec.ports) }],
      priority: FIREWALL_PRIORITY,
    };
  }

  /**
   * Upstream `ensureHTTPHealthCheckFirewall`: a Local Service's check firewall is described like its
   * traffic firewall and opens the load balancer IP; the shared one is described by the cluster ID
   * and, here, opens every destination (upstream gives it the IP of whichever load balancer created
   * it, which would not cover the others' probes; an adopted one is left as it is).
   */
  #healthCheckFirewall(spec: ExternalLoadBalancerSpec, ip: string, tags: string[]): GceFirewall {
    return {
      name: spec.healthCheck.firewallName,
      network: this.#context.links.network(this.#context.networkName),
      description: spec.healthCheck.firewallDescription ?? firewallDescription(spec.serviceName, ip),
      sourceRanges: [...(this.#context.healthCheckSourceRanges ?? L4_HEALTH_CHECK_SOURCE_RANGES)],
      destinationRanges: spec.healthCheck.shared ? [] : [ip],
      targetTags: tags,
      allowed: [{ IPProtocol: 'tcp', ports: [String(spec.healthCheck.port)] }],
      priority: FIREWALL_PRIORITY,
    };
  }

  async #ensureFirewall(service: V1Service, desired: GceFirewall, options: CallOptions | undefined, needsUpdate: (desired: GceFirewall, observed: GceFirewall) => boolean): Promise<void> {
    const { compute, firewalls } = this.#context;
    const observed = await compute.getFirewall(desired.name, options);
    if (observed === undefined) await firewalls.insert(service, desired, options);
    else if (needsUpdate(desired, observed)) await firewalls.patch(service, desired, options);
  }

  /** Creates or updates the legacy HTTP health check; returns its URL. */
  async #ensureHealthCheck(spec: HealthCheckSpec, options?: CallOptions): Promise<string> {
    const { compute } = this.#context;
    const observed = await compute.getHttpHealthCheck(spec.name, options);
    const planned = planHealthCheck(spec, observed);
    if (planned !== undefined && observed === undefined) await ignoring(['AlreadyExists'], () => compute.insertHttpHealthCheck(planned, options));
    else if (planned !== undefined) await compute.updateHttpHealthCheck(planned, options);
    return observed?.selfLink ?? this.#context.links.httpHealthCheck(spec.name);
  }

  /** The target pool of the hosts; recreated (with the forwarding rule) when affinity or health check changed. Returns the rule still standing. */
  /** The target pool (recreated when its affinity or check changed), and the forwarding rule left standing. */
  async #ensureTargetPool(
    spec: ExternalLoadBalancerSpec,
    hosts: GceInstance[],
    healthCheckUrl: string,
    rule: GceForwardingRule | undefined,
    options?: CallOptions,
  ): Promise<{ rule: GceForwardingRule | undefined; recreated: boolean }> {
    const { compute, region, links } = this.#context;
    let pool = await compute.getTargetPool(region, spec.name, options);
    const recreated = pool !== undefined && targetPoolNeedsRecreation(pool, spec.sessionAffinity, healthCheckUrl);
    if (recreated) {
      this.#context.logger.info('recreating the target pool and forwarding rule (affinity or health check changed)', { service: spec.serviceName });
      if (rule !== undefined) await ignoring(['NotFound'], () => compute.deleteForwardingRule(region, spec.name, options));
      rule = undefined;
      await ignoring(['NotFound'], () => compute.deleteTargetPool(region, spec.name, options));
      pool = undefined;
    }
    const instanceUrls = hosts.map((host) => (host.selfLink === '' ? links.instance(host.zone, host.name) : host.selfLink));
    if (pool === undefined) {
      await ignoring(['AlreadyExists'], () =>
        compute.insertTargetPool(
          region,
          {
            name: spec.name,
            description: serviceDescription(spec.serviceName),
            instances: instanceUrls.slice(0, MAX_TARGET_POOL_CREATE_INSTANCES),
            healthChecks: [healthCheckUrl],
            sessionAffinity: spec.sessionAffinity,
          },
          options,
        ),
      );
      if (instanceUrls.length > MAX_TARGET_POOL_CREATE_INSTANCES) await this.#updateMembers(spec.name, hosts, instanceUrls.slice(0, MAX_TARGET_POOL_CREATE_INSTANCES), options);
    } else {
      await this.#updateMembers(spec.name, hosts, pool.instances, options);
    }
    return { rule, recreated };
  }

  async #updateMembers(name: string, hosts: GceInstance[], current: string[], options?: CallOptions): Promise<void> {
    const { compute, region, links } = this.#context;
    const desired = hosts.map((host) => (host.selfLink === '' ? links.instance(host.zone, host.name) : host.selfLink));
    const plan = planTargetPoolMembers(desired, { name, instances: current, healthChecks: [] });
    if (plan.add.length === 0 && plan.remove.length === 0) return;
    for (let first = 0; first < plan.add.length; first += MAX_INSTANCES_PER_TARGET_POOL_UPDATE) {
      await compute.addTargetPoolInstances(region, name, plan.add.slice(first, first + MAX_INSTANCES_PER_TARGET_POOL_UPDATE), options);
    }
    for (let first = 0; first < plan.remove.length; first += MAX_INSTANCES_PER_TARGET_POOL_UPDATE) {
      await compute.removeTargetPoolInstances(region, name, plan.remove.slice(first, first + MAX_INSTANCES_PER_TARGET_POOL_UPDATE), options);
    }
    const updated = await compute.getTargetPool(region, name, options);
    if (updated !== undefined && updated.instances.length !== desired.length) {
      throw new GceCloudStateError(`target pool ${name} has ${updated.instances.length} instances after the update, expected ${desired.length}`);
    }
  }
}
