/**
 * The internal load balancer (upstream `gce_loadbalancer_internal.go`): the shared unmanaged
 * instance group of every zone with nodes (members from node names and zone labels, no instance
 * look-up), the HTTP health check (shared `k8s-<cluster ID>-node` or the Service's own), the
 * regional backend service (per Service, or shared with the backend-share annotation), a regional
 * INTERNAL address held during the sync, the INTERNAL forwarding rule on the subnetwork, and the
 * traffic and health-check firewalls. Idempotent steps; every change is a diff of what the cloud
 * has; a stale fingerprint (412) re-reads everything and tries again.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { LoadBalancerStatus } from '@ccm/core/provider';
import type { Logger } from '@ccm/core/logging';
import { GceCloudStateError, isGceErrorKind } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, GceBackendService, GceFirewall, GceForwardingRule } from '../../ports/compute-port.js';
import type { InstanceLocator } from '../instance-locator.js';
import { nameOfLink, type ResourceLinks } from '../resource-links.js';
import { firewallNeedsUpdate, firewallPorts } from './external-planners.js';
import type { FirewallWrites } from './firewall-writes.js';
import { hostInstances, hostTags } from './host-instances.js';
import { buildInternalLoadBalancerSpec, internalLoadBalancerNames, type InternalLoadBalancerSpec } from './internal-load-balancer-spec.js';
import { internalHealthCheckFirewallName } from './internal-load-balancer-names.js';
import {
  backendServiceNeedsUpdate,
  internalForwardingRuleNeedsRecreation,
  internalForwardingRulePorts,
  internalIpToUse,
  nodesByZone,
  planInstanceGroupMembers,
  planInternalHealthCheck,
} from './internal-planners.js';
import { firewallDescription, L4_HEALTH_CHECK_SOURCE_RANGES, serviceDescription, trafficFirewallName } from './load-balancer-names.js';

/** Syncs started again after a stale fingerprint (HTTP 412), re-reading everything. */
export const INTERNAL_PRECONDITION_RETRIES = 3;

export interface InternalLoadBalancerContext {
  compute: ComputePort;
  /** Firewall writes (a 403 on a Shared VPC becomes an event with the gcloud command). */
  firewalls: FirewallWrites;
  links: ResourceLinks;
  locator: InstanceLocator;
  region: string;
  networkName: string;
  /** The configured `subnetwork-name` ('' when unset). */
  subnetworkName: string;
  nodeTags: readonly string[];
  /** Source ranges of the health-check firewall (`--cloud-provider-gce-lb-src-cidrs`); default `L4_HEALTH_CHECK_SOURCE_RANGES`. */
  healthCheckSourceRanges?: readonly string[];
  clusterId: () => Promise<string>;
  logger: Logger;
}

const serviceNameOf = (service: V1Service): string => `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;

/** Owned: no description (shared resources, as upstream writes none) or one naming this Service. */
function ownedBy(description: string | undefined, serviceName: string): boolean {
  return description === undefined || description === '' || description.includes(`"kubernetes.io/service-name":"${serviceName}"`);
}

async function ignoring<T>(kinds: ReadonlyArray<'NotFound' | 'AlreadyExists' | 'InUse'>, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (kinds.some((kind) => isGceErrorKind(error, kind))) return undefined;
    throw error;
  }
}

async function retryingStaleFingerprints<T>(logger: Logger, serviceName: string, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isGceErrorKind(error, 'PreconditionFailed') || attempt >= INTERNAL_PRECONDITION_RETRIES) throw error;
      logger.info('stale fingerprint, reading the internal load balancer again', { service: serviceName, attempt });
    }
  }
}

export class InternalLoadBalancerOperations {
  readonly #context: InternalLoadBalancerContext;

  constructor(context: InternalLoadBalancerContext) {
    this.#context = context;
  }

  async ensure(service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const spec = buildInternalLoadBalancerSpec(service, await this.#context.clusterId());
    return retryingStaleFingerprints(this.#context.logger, spec.serviceName, () => this.#ensure(service, spec, nodes, options));
  }

  /** Node changes: the instance groups, then the backend service's groups (upstream `updateInternalLoadBalancer`). */
  async update(service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const spec = buildInternalLoadBalancerSpec(service, await this.#context.clusterId());
    await retryingStaleFingerprints(this.#context.logger, spec.serviceName, async () => {
      const groupLinks = await this.#ensureInstanceGroups(spec.instanceGroupName, nodes, options);
      const observed = await this.#context.compute.getRegionBackendService(this.#context.region, spec.backendService.name, options);
      if (observed === undefined) {
        this.#context.logger.info('no backend service yet: the next sync creates it', { service: spec.serviceName, backendService: spec.backendService.name });
        return;
      }
      const desired = { ...observed, backends: groupLinks.map((group) => ({ group })) };
      if (backendServiceNeedsUpdate(desired, observed)) await this.#context.compute.updateRegionBackendService(this.#context.region, desired, options);
    });
  }

  /**
   * Everything this Service owns (upstream `ensureInternalLoadBalancerDeleted`); shared instance
   * groups and the shared health check only when nothing else uses them. Names are read leniently
   * (a broken annotation does not block deletion), and the backend service and health check the
   * forwarding rule actually used are deleted too.
   */
  async delete(service: V1Service, options?: CallOptions): Promise<void> {
    const { compute, region, logger } = this.#context;
    const names = internalLoadBalancerNames(service, await this.#context.clusterId());
    const owned = async (kind: string, name: string, read: () => Promise<{ description?: string } | undefined>): Promise<boolean> => {
      const found = await read();
      if (found === undefined) return false;
      if (ownedBy(found.description, names.serviceName)) return true;
      logger.warn(`not deleting ${kind} ${name}: its description names another owner`, { service: names.serviceName, description: found.description });
      return false;
    };
    if (await owned('address', names.name, () => compute.getAddress(region, names.name, options))) await ignoring(['NotFound'], () => compute.deleteAddress(region, names.name, options));
    const rule = await compute.getForwardingRule(region, names.name, options);
    const backendServices = new Set([names.backendServiceName]);
    if (rule !== undefined && ownedBy(rule.description, names.serviceName)) {
      if (rule.backendService !== undefined) backendServices.add(nameOfLink(rule.backendService));
      await ignoring(['NotFound'], () => compute.deleteForwardingRule(region, names.name, options));
    } else if (rule !== undefined) {
      logger.warn(`not deleting forwarding rule ${names.name}: its description names another owner`, { service: names.serviceName, description: rule.description });
    }
    const healthChecks = new Set([names.healthCheckName]);
    for (const backendServiceName of backendServices) {
      const found = await compute.getRegionBackendService(region, backendServiceName, options);
      if (found === undefined) continue;
      if (!ownedBy(found.description, names.serviceName)) {
        logger.warn(`not deleting backend service ${backendServiceName}: its description names another owner`, { service: names.serviceName, description: found.description });
        continue;
      }
      for (const check of found.healthChecks) healthChecks.add(nameOfLink(check));
      await ignoring(['NotFound', 'InUse'], () => compute.deleteRegionBackendService(region, backendServiceName, options));
    }
    for (const firewall of [trafficFirewallName(names.name), names.name]) {
      if (await owned('firewall', firewall, () => compute.getFirewall(firewall, options))) await this.#context.firewalls.delete(service, firewall, options);
    }
    for (const check of healthChecks) await this.#deleteHealthCheckAndFirewall(service, check, names.serviceName, options);
    for (const zone of await compute.listZones(region, options)) {
      await ignoring(['NotFound', 'InUse'], () => compute.deleteInstanceGroup(zone, names.instanceGroupName, options));
    }
  }

  async #ensure(service: V1Service, spec: InternalLoadBalancerSpec, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const { compute, region, links } = this.#context;
    let existingRule = await compute.getForwardingRule(region, spec.name, options);
    const groupLinks = await this.#ensureInstanceGroups(spec.instanceGroupName, nodes, options);
    const previousBackendService =
      existingRule?.backendService === undefined ? undefined : await compute.getRegionBackendService(region, nameOfLink(existingRule.backendService), options);
    const healthCheckUrl = await this.#ensureHealthCheck(spec, options);
    const subnetworkName = spec.subnetName ?? this.#context.subnetworkName;
    const subnetworkUrl = subnetworkName === '' ? undefined : links.subnetwork(region, subnetworkName);
    const address = await this.#holdAddress(spec, internalIpToUse(spec.requestedIp, existingRule, subnetworkUrl ?? ''), subnetworkUrl, options);
    try {
      const desiredRule: GceForwardingRule = {
        name: spec.name,
        description: serviceDescription(spec.serviceName),
        ...(address.ip === undefined ? {} : { IPAddress: address.ip }),
        IPProtocol: spec.protocol,
        loadBalancingScheme: 'INTERNAL',
        backendService: links.regionBackendService(region, spec.backendService.name),
        ...internalForwardingRulePorts(spec.ports),
        network: links.network(this.#context.networkName),
        ...(subnetworkUrl === undefined ? {} : { subnetwork: subnetworkUrl }),
        ...(spec.allowGlobalAccess ? { allowGlobalAccess: true } : {}),
      };
      if (existingRule !== undefined && internalForwardingRuleNeedsRecreation(existingRule, desiredRule)) {
        this.#context.logger.info('internal forwarding rule changed: deleting it to recreate it', { service: spec.serviceName });
        await ignoring(['NotFound'], () => compute.deleteForwardingRule(region, spec.name, options));
        existingRule = undefined;
      }
      await this.#ensureBackendService(spec, groupLinks, healthCheckUrl, options);
      if (existingRule === undefined) await ignoring(['AlreadyExists'], () => compute.insertForwardingRule(region, desiredRule, options));
      const rule = await compute.getForwardingRule(region, spec.name, options);
      const ip = rule?.IPAddress;
      if (ip === undefined) throw new GceCloudStateError(`internal forwarding rule ${spec.name} in ${region} has no IP`);
      await this.#ensureFirewalls(service, spec, ip, nodes, options);
      if (previousBackendService !== undefined) await this.#clearPrevious(service, spec, previousBackendService, options);
      return { ingress: [{ ip }] };
    } finally {
      if (address.release) await this.#releaseAddress(spec, options);
    }
  }

  /** Upstream `ensureInternalInstanceGroups`: one shared group per zone with nodes, members as a diff; returns the groups' links. */
  async #ensureInstanceGroups(name: string, nodes: readonly V1Node[], options?: CallOptions): Promise<string[]> {
    const { compute, links } = this.#context;
    const { zoned, withoutZone } = nodesByZone(nodes, this.#context.subnetworkName);
    const groupLinks: string[] = [];
    for (const [zone, names] of [...zoned].sort(([a], [b]) => a.localeCompare(b))) {
      let group = await compute.getInstanceGroup(zone, name, options);
      let members: string[] = [];
      if (group === undefined) {
        await ignoring(['AlreadyExists'], () => compute.insertInstanceGroup({ name, zone }, options));
        group = await compute.getInstanceGroup(zone, name, options);
      } else {
        members = await compute.listInstanceGroupInstances(zone, name, options);
      }
      const plan = planInstanceGroupMembers(names, members, withoutZone);
      if (plan.remove.length > 0) await ignoring(['NotFound'], () => compute.removeInstanceGroupInstances(zone, name, plan.remove, options));
      if (plan.add.length > 0) await compute.addInstanceGroupInstances(zone, name, plan.add.map((instance) => links.instance(zone, instance)), options);
      groupLinks.push(group?.selfLink ?? links.instanceGroup(zone, name));
    }
    return groupLinks;
  }

  async #ensureHealthCheck(spec: InternalLoadBalancerSpec, options?: CallOptions): Promise<string> {
    const { compute, links } = this.#context;
    const observed = await compute.getHealthCheck(spec.healthCheck.name, options);
    const planned = planInternalHealthCheck(spec.healthCheck, observed);
    if (planned !== undefined && observed === undefined) await ignoring(['AlreadyExists'], () => compute.insertHealthCheck(planned, options));
    else if (planned !== undefined) await compute.updateHealthCheck(planned, options);
    return observed?.selfLink ?? links.healthCheck(spec.healthCheck.name);
  }

  async #ensureBackendService(spec: InternalLoadBalancerSpec, groupLinks: readonly string[], healthCheckUrl: string, options?: CallOptions): Promise<void> {
    const { compute, region } = this.#context;
    const desired: GceBackendService = {
      name: spec.backendService.name,
      protocol: spec.protocol,
      description: spec.backendService.description,
      healthChecks: [healthCheckUrl],
      backends: groupLinks.map((group) => ({ group })),
      sessionAffinity: spec.sessionAffinity,
      loadBalancingScheme: 'INTERNAL',
    };
    const observed = await compute.getRegionBackendService(region, desired.name, options);
    if (observed === undefined) await ignoring(['AlreadyExists'], () => compute.insertRegionBackendService(region, desired, options));
    else if (backendServiceNeedsUpdate(desired, observed)) {
      await compute.updateRegionBackendService(region, { ...desired, ...(observed.fingerprint === undefined ? {} : { fingerprint: observed.fingerprint }) }, options);
    }
  }

  /**
   * A regional INTERNAL address named after the load balancer, holding the IP while the rule is
   * (re)created (upstream `addressManager`). A requested IP reserved under another name is the
   * user's: it is used as is and never released.
   */
  async #holdAddress(spec: InternalLoadBalancerSpec, ip: string | undefined, subnetworkUrl: string | undefined, options?: CallOptions): Promise<{ ip: string | undefined; release: boolean }> {
    const { compute, region } = this.#context;
    const existing = await compute.getAddress(region, spec.name, options);
    if (existing !== undefined) {
      const fits = (ip === undefined || existing.address === ip) && existing.addressType === 'INTERNAL' && (subnetworkUrl === undefined || existing.subnetwork === undefined || nameOfLink(existing.subnetwork) === nameOfLink(subnetworkUrl));
      if (fits) return { ip: existing.address, release: true };
      if (!ownedBy(existing.description, spec.serviceName)) throw new GceCloudStateError(`address ${spec.name} in ${region} belongs to someone else and does not fit the internal load balancer`);
      await ignoring(['NotFound'], () => compute.deleteAddress(region, spec.name, options));
    }
    if (ip !== undefined) {
      const reserved = await compute.findAddressByIp(region, ip, options);
      if (reserved !== undefined && reserved.name !== spec.name) return { ip, release: false };
    }
    await ignoring(['AlreadyExists'], () =>
      compute.insertAddress(
        region,
        {
          name: spec.name,
          description: serviceDescription(spec.serviceName),
          addressType: 'INTERNAL',
          ...(ip === undefined ? {} : { address: ip }),
          ...(subnetworkUrl === undefined ? {} : { subnetwork: subnetworkUrl }),
        },
        options,
      ),
    );
    const held = await compute.getAddress(region, spec.name, options);
    if (held?.address === undefined) throw new GceCloudStateError(`address ${spec.name} in ${region} has no IP`);
    return { ip: held.address, release: true };
  }

  async #releaseAddress(spec: InternalLoadBalancerSpec, options?: CallOptions): Promise<void> {
    try {
      await this.#context.compute.deleteAddress(this.#context.region, spec.name, options);
    } catch (error) {
      if (isGceErrorKind(error, 'NotFound') || isGceErrorKind(error, 'InUse')) return;
      this.#context.logger.warn('could not release the held internal address; it is released with the load balancer', { service: spec.serviceName, error: String(error) });
    }
  }

  /** Upstream `ensureInternalFirewalls`: traffic `k8s-fw-<lb>` (the legacy `<lb>` one deleted once it exists) and the health-check firewall. */
  async #ensureFirewalls(service: V1Service, spec: InternalLoadBalancerSpec, ip: string, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const { compute } = this.#context;
    const tags = hostTags(this.#context.nodeTags, this.#context.nodeTags.length > 0 ? [] : await hostInstances(this.#context.locator, nodes, options));
    const network = this.#context.links.network(this.#context.networkName);
    const traffic: GceFirewall = {
      name: trafficFirewallName(spec.name),
      network,
      description: firewallDescription(spec.serviceName, ip),
      sourceRanges: spec.sourceRanges,
      destinationRanges: [ip],
      targetTags: tags,
      allowed: [{ IPProtocol: spec.protocol.toLowerCase(), ports: firewallPorts(spec.ports) }],
    };
    const trafficExisted = await this.#ensureFirewall(service, traffic, options);
    if (trafficExisted) {
      const legacy = await compute.getFirewall(spec.name, options);
      if (legacy !== undefined && ownedBy(legacy.description, spec.serviceName)) await this.#context.firewalls.delete(service, spec.name, options);
    }
    await this.#ensureFirewall(
      service,
      {
        name: spec.healthCheck.firewallName,
        network,
        description: '',
        sourceRanges: [...(this.#context.healthCheckSourceRanges ?? L4_HEALTH_CHECK_SOURCE_RANGES)],
        destinationRanges: [],
        targetTags: tags,
        allowed: [{ IPProtocol: 'tcp', ports: [String(spec.healthCheck.port)] }],
      },
      options,
    );
  }

  /** Creates or patches; true when the firewall already existed. */
  async #ensureFirewall(service: V1Service, desired: GceFirewall, options?: CallOptions): Promise<boolean> {
    const { compute, firewalls } = this.#context;
    const observed = await compute.getFirewall(desired.name, options);
    if (observed === undefined) {
      await firewalls.insert(service, desired, options);
      return false;
    }
    if (firewallNeedsUpdate(desired, observed)) await firewalls.patch(service, desired, options);
    return true;
  }

  /** Upstream `clearPreviousInternalResources`: the backend service and health check used before a name change. */
  async #clearPrevious(service: V1Service, spec: InternalLoadBalancerSpec, previous: GceBackendService, options?: CallOptions): Promise<void> {
    const { compute, region, logger } = this.#context;
    if (previous.name !== spec.backendService.name) {
      logger.info('deleting the previous backend service', { service: spec.serviceName, backendService: previous.name });
      await ignoring(['NotFound', 'InUse'], () => compute.deleteRegionBackendService(region, previous.name, options));
    }
    const [previousHealthCheck] = previous.healthChecks;
    if (previous.healthChecks.length === 1 && previousHealthCheck !== undefined && nameOfLink(previousHealthCheck) !== spec.healthCheck.name) {
      logger.info('deleting the previous health check', { service: spec.serviceName, healthCheck: nameOfLink(previousHealthCheck) });
      await this.#deleteHealthCheckAndFirewall(service, nameOfLink(previousHealthCheck), spec.serviceName, options);
    }
  }

  /** Upstream `teardownInternalHealthCheckAndFirewall`: a check still in use stays, with its firewall. */
  async #deleteHealthCheckAndFirewall(service: V1Service, name: string, serviceName: string, options?: CallOptions): Promise<void> {
    const { compute, logger } = this.#context;
    const check = await compute.getHealthCheck(name, options);
    if (check !== undefined) {
      if (!ownedBy(check.description, serviceName)) {
        logger.warn(`not deleting health check ${name}: its description names another owner`, { service: serviceName, description: check.description });
        return;
      }
      try {
        await compute.deleteHealthCheck(name, options);
      } catch (error) {
        if (isGceErrorKind(error, 'InUse')) return;
        if (!isGceErrorKind(error, 'NotFound')) throw error;
      }
    }
    const firewallName = internalHealthCheckFirewallName(name);
    const firewall = await compute.getFirewall(firewallName, options);
    if (firewall !== undefined && ownedBy(firewall.description, serviceName)) await this.#context.firewalls.delete(service, firewallName, options);
  }
}
