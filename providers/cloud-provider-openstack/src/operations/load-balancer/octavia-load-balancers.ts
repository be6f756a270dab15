/**
 * The Octavia load balancer of a Service (upstream `LbaasV2`): one load balancer per Service,
 * created in one fully populated call, then kept equal to the Service by diffs; a floating IP on
 * its VIP port unless internal; deleted (cascade) only when the CCM created it. Every step is
 * idempotent: a second sync changes nothing.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import type { CallOptions } from '@ccm/core/cloud';
import { defaultLoadBalancerName, PermanentInvalidServiceConfigurationError, type LoadBalancerIngress, type LoadBalancerStatus } from '@ccm/core/provider';
import { ANNOTATIONS, booleanAnnotation, stringAnnotation } from '../../annotations.js';
import { CloudStateError, isOpenStackErrorKind, OpenStackApiError } from '../../errors.js';
import type { OctaviaLoadBalancer, PopulatedListenerSpec } from '../../ports/octavia-port.js';
import { ensureFloatingIp, releaseFloatingIp } from './floating-ip.js';
import { deleteServiceSecurityGroup, ensureServiceSecurityGroup } from './load-balancer-security-group.js';
import { reconcileChildren } from './load-balancer-children.js';
import { changeLoadBalancer, ignoringNotFound, type LoadBalancerContext } from './load-balancer-context.js';
import { loadBalancerDescription, loadBalancerName, SERVICE_PREFIX, type ServiceIdentity } from './load-balancer-names.js';
import { desiredMembers, selectNodes } from './load-balancer-planners.js';
import { buildLoadBalancerSpec, type LoadBalancerSpec } from './load-balancer-spec.js';
import { placeVip, releaseReservedVipPort, releaseReservedVipPortOf, vipPortIdOf } from './vip-address.js';
import { isServiceNameUnderOldClusterName, renameLoadBalancer } from './load-balancer-rename.js';
import { waitForActive, waitForDeleted } from './provisioning-wait.js';

const identityOf = (service: V1Service): ServiceIdentity => ({ namespace: service.metadata?.namespace ?? '', name: service.metadata?.name ?? '' });

export class OctaviaLoadBalancerOperations {
  readonly #context: LoadBalancerContext;

  constructor(context: LoadBalancerContext) {
    this.#context = context;
  }

  name(clusterName: string, service: V1Service): string {
    return loadBalancerName(clusterName, identityOf(service));
  }

  /**
   * The Service's load balancer as upstream finds it (`ensureOctaviaLoadBalancer`,
   * `getLoadbalancerByName`), ignoring ones being deleted: by the ID of the `load-balancer-id`
   * annotation upstream writes on the Service, when that load balancer bears one of the Service's
   * names (sharing another Service's load balancer is refused by `ensure`), or this Service's name
   * under another cluster name (`ensure` renames it, upstream `lbHasOldClusterName`); else by name;
   * else by the legacy name `a<uid>` (`getLoadBalancerLegacyName`) of load balancers made by older releases.
   */
  async find(clusterName: string, service: V1Service, options?: CallOptions): Promise<OctaviaLoadBalancer | undefined> {
    const { octavia } = this.#context;
    const live = (candidate: OctaviaLoadBalancer | undefined): candidate is OctaviaLoadBalancer =>
      candidate !== undefined && candidate.provisioningStatus !== 'DELETED' && candidate.provisioningStatus !== 'PENDING_DELETE';
    const name = this.name(clusterName, service);
    const legacyName = defaultLoadBalancerName(service);
    const annotatedId = stringAnnotation(service, 'loadBalancerId');
    if (annotatedId !== undefined) {
      const annotated = await octavia.getLoadBalancer(annotatedId, options);
      if (live(annotated) && (annotated.name === name || annotated.name === legacyName || isServiceNameUnderOldClusterName(annotated.name, clusterName, name))) return annotated;
    }
    for (const candidateName of [name, legacyName]) {
      const found = (await octavia.findLoadBalancersByName(candidateName, options)).filter(live);
      if (found.length > 1) throw new CloudStateError(`${found.length} load balancers are named ${candidateName}`);
      if (found[0] !== undefined) return found[0];
    }
    return undefined;
  }

  async status(clusterName: string, service: V1Service, options?: CallOptions): Promise<LoadBalancerStatus | undefined> {
    const loadBalancer = await this.find(clusterName, service, options);
    if (loadBalancer === undefined) return undefined;
    const portId = await vipPortIdOf(this.#context, loadBalancer, options);
    const floating = portId === undefined ? undefined : (await this.#context.network.floatingIpsOfPort(portId, options))[0];
    return this.#statusOf(service, floating?.address ?? loadBalancer.vipAddress);
  }

  /**
   * Upstream `ensureOctaviaLoadBalancer`. The Service gets the `load-balancer-id` annotation once
   * its load balancer is known and `load-balancer-address` (the floating IP or VIP, also when the
   * status reports a hostname) once the address is; they are written at the end, also when a
   * later step failed (upstream's deferred Service patch).
   */
  async ensure(clusterName: string, service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<LoadBalancerStatus> {
    const annotations: Record<string, string> = {};
    let status: LoadBalancerStatus;
    try {
      status = await this.#ensure(clusterName, service, nodes, annotations, options);
    } catch (error) {
      await this.#annotate(service, annotations).catch((patchError: unknown) =>
        this.#context.logger.warn('cannot write the load balancer annotations on the Service', { service: `${service.metadata?.namespace}/${service.metadata?.name}`, error: String(patchError) }),
      );
      throw error;
    }
    await this.#annotate(service, annotations);
    return status;
  }

  async #annotate(service: V1Service, annotations: Readonly<Record<string, string>>): Promise<void> {
    if (Object.keys(annotations).length > 0) await this.#context.serviceAnnotations.write(service, annotations);
  }

  async #ensure(clusterName: string, service: V1Service, nodes: readonly V1Node[], annotations: Record<string, string>, options?: CallOptions): Promise<LoadBalancerStatus> {
    const { octavia, settings, logger } = this.#context;
    const spec = buildLoadBalancerSpec(service, clusterName, settings);
    const members = selectNodes(nodes, spec.nodeSelector);
    let loadBalancer = await this.find(clusterName, service, options);
    if (spec.namedLoadBalancerId !== undefined && spec.namedLoadBalancerId !== loadBalancer?.id) {
      const named = await octavia.getLoadBalancer(spec.namedLoadBalancerId, options);
      if (named !== undefined && named.provisioningStatus !== 'DELETED') {
        throw new PermanentInvalidServiceConfigurationError(
          `annotation ${ANNOTATIONS.loadBalancerId.key}=${JSON.stringify(spec.namedLoadBalancerId)}: sharing a load balancer is not supported; the ID may only name the Service's own load balancer ${spec.name}`,
          { annotation: ANNOTATIONS.loadBalancerId.key, value: spec.namedLoadBalancerId },
        );
      }
      // The annotation we (or upstream) wrote outlived its load balancer (the Service was of
      // another type for a while): the Service's own load balancer is found or made, its ID written.
      logger.warn('the load-balancer-id annotation names a load balancer that no longer exists; using the Service\'s own', { loadBalancerId: spec.namedLoadBalancerId, loadBalancer: spec.name });
    }
    if (loadBalancer !== undefined) annotations[ANNOTATIONS.loadBalancerId.key] = loadBalancer.id;
    if (loadBalancer?.provisioningStatus === 'ERROR') {
      // Upstream (ensureOctaviaLoadBalancer) fails the sync and touches nothing: the load balancer
      // keeps its VIP and floating IP until an operator repairs it (Octavia failover) or deletes
      // the Service. The controller turns this into a SyncLoadBalancerFailed Warning and retries.
      throw new OpenStackApiError(`load balancer ${loadBalancer.id} is not ACTIVE, current provisioning status: ERROR`, {
        kind: 'ProvisioningFailed',
        operation: 'loadbalancer.ensure',
        retryable: false,
      });
    }
    if (loadBalancer !== undefined && isServiceNameUnderOldClusterName(loadBalancer.name, clusterName, spec.name)) {
      // Upstream (ensureOctaviaLoadBalancer, loadbalancer_rename.go): the cluster name changed; the
      // load balancer and its children are renamed (upstream also raises a LoadBalancerRename Warning).
      logger.warn('the load balancer is named after another cluster name: renaming it', { loadBalancer: loadBalancer.name, id: loadBalancer.id, name: spec.name });
      loadBalancer = await renameLoadBalancer(this.#context, loadBalancer, spec.name, clusterName, options);
    }
    if (loadBalancer === undefined) {
      loadBalancer = await this.#create(spec, members, nodes, options);
      annotations[ANNOTATIONS.loadBalancerId.key] = loadBalancer.id;
    } else {
      loadBalancer = await waitForActive(octavia, this.#context.wait, loadBalancer.id, options);
      await reconcileChildren(this.#context, spec, loadBalancer.id, members, { listeners: true }, options);
      if (!loadBalancer.tags.includes(spec.name)) {
        const id = loadBalancer.id;
        const tags = [...loadBalancer.tags, spec.name];
        await changeLoadBalancer(this.#context, id, () => octavia.updateLoadBalancerTags(id, tags, options), options);
      }
      loadBalancer = await waitForActive(octavia, this.#context.wait, loadBalancer.id, options);
    }
    const floating = await ensureFloatingIp(this.#context, spec, await vipPortIdOf(this.#context, loadBalancer, options), options);
    const address = floating ?? loadBalancer.vipAddress;
    annotations[ANNOTATIONS.loadBalancerAddress.key] = address;
    const status = this.#statusOf(service, address, spec);
    if (settings.manageSecurityGroups) {
      await ensureServiceSecurityGroup(this.#context, service, this.#securityGroupTarget(spec, loadBalancer, members), options);
    } else {
      // Upstream: a group made while the setting was on goes once it is off.
      await deleteServiceSecurityGroup(this.#context, service, options);
    }
    return status;
  }

  #securityGroupTarget(spec: LoadBalancerSpec, loadBalancer: OctaviaLoadBalancer, members: readonly V1Node[]): Parameters<typeof ensureServiceSecurityGroup>[2] {
    return { clusterName: spec.clusterName, identity: spec.service, members, memberSubnetId: spec.memberSubnetId ?? spec.vipSubnetId ?? loadBalancer.vipSubnetId };
  }

  /** Node changes (upstream `UpdateLoadBalancer`): pools, members and monitors, and the security group's attachments. */
  async update(clusterName: string, service: V1Service, nodes: readonly V1Node[], options?: CallOptions): Promise<void> {
    const spec = buildLoadBalancerSpec(service, clusterName, this.#context.settings);
    const loadBalancer = await this.find(clusterName, service, options);
    if (loadBalancer === undefined) throw new OpenStackApiError(`load balancer ${spec.name} does not exist yet`, { kind: 'NotFound', operation: 'loadbalancer.update', retryable: true });
    const members = selectNodes(nodes, spec.nodeSelector);
    await reconcileChildren(this.#context, spec, loadBalancer.id, members, { listeners: false }, options);
    // Upstream leaves a group alone here when the setting is off: ensure deletes it.
    if (this.#context.settings.manageSecurityGroups) await ensureServiceSecurityGroup(this.#context, service, this.#securityGroupTarget(spec, loadBalancer, members), options);
  }

  /**
   * Deletes what the CCM made for the Service: the floating IP it created (unless
   * `keep-floatingip`), the load balancer when its name and tags say the Service owns it (else only
   * the Service's listeners), and the reserved VIP port.
   */
  async delete(clusterName: string, service: V1Service, options?: CallOptions): Promise<void> {
    const { logger } = this.#context;
    const identity = identityOf(service);
    const name = this.name(clusterName, service);
    let keepFloatingIp: boolean;
    try {
      keepFloatingIp = booleanAnnotation(service, 'keepFloatingIp', false);
    } catch (error) {
      // Deleting must not wait for a fixed annotation; when in doubt, keep the address.
      logger.warn('keeping the floating IP: the keep-floatingip annotation is not true or false', { service: `${identity.namespace}/${identity.name}`, error: String(error) });
      keepFloatingIp = true;
    }
    const loadBalancer = await this.find(clusterName, service, options);
    if (loadBalancer !== undefined) {
      const portId = await vipPortIdOf(this.#context, loadBalancer, options);
      if (portId !== undefined) {
        for (const floating of await this.#context.network.floatingIpsOfPort(portId, options)) {
          await releaseFloatingIp(this.#context, { service: identity, clusterName, keepFloatingIp, name }, floating, options);
        }
      }
      // Not renamed yet (the cluster name changed and no sync ran since): its old name is the Service's too.
      const oldName = isServiceNameUnderOldClusterName(loadBalancer.name, clusterName, name) ? loadBalancer.name : undefined;
      const otherOwners = loadBalancer.tags.filter((tag) => tag.startsWith(SERVICE_PREFIX) && tag !== name && tag !== oldName);
      const namedForService = loadBalancer.name === name || loadBalancer.name === defaultLoadBalancerName(service) || oldName !== undefined;
      if (!namedForService || otherOwners.length > 0) {
        logger.warn('the load balancer is not only this Service\'s: removing its listeners and tag only', { loadBalancer: loadBalancer.name, otherOwners });
        await this.#removeServiceListeners(loadBalancer, name, options);
      } else {
        await this.#deleteLoadBalancer(loadBalancer, options);
        if (portId !== undefined) await releaseReservedVipPortOf(this.#context, portId, identity, options);
      }
    }
    await releaseReservedVipPort(this.#context, { name, clusterName, service: identity }, options);
    // Also with manage-security-groups off, so that no group outlives its Service (upstream).
    await deleteServiceSecurityGroup(this.#context, service, options);
  }

  async #create(spec: LoadBalancerSpec, members: readonly V1Node[], allNodes: readonly V1Node[], options?: CallOptions): Promise<OctaviaLoadBalancer> {
    const { octavia, logger, settings } = this.#context;
    const vip = await placeVip(this.#context, spec, allNodes, options);
    // Fully populated in one call, or empty with the children added one call at a time (upstream
    // `provider-requires-serial-api-calls`).
    const listeners: PopulatedListenerSpec[] = settings.serialApiCalls
      ? []
      : spec.ports.map((port) => ({
          ...port.listener,
          pool: { ...port.pool, members: desiredMembers(members, port, spec.memberSubnetId, spec.healthCheckNodePort), healthMonitor: port.healthMonitor },
        }));
    logger.info('creating load balancer', { loadBalancer: spec.name, listeners: spec.ports.length, members: members.length, serial: settings.serialApiCalls });
    const created = await octavia.createLoadBalancer(
      {
        name: spec.name,
        description: loadBalancerDescription(spec.clusterName, spec.service),
        ...(vip.subnetId === undefined ? {} : { vipSubnetId: vip.subnetId }),
        ...(vip.portId === undefined ? {} : { vipPortId: vip.portId }),
        ...(vip.address === undefined ? {} : { vipAddress: vip.address }),
        provider: settings.provider,
        ...(spec.flavorId === undefined ? {} : { flavorId: spec.flavorId }),
        ...(spec.availabilityZone === undefined ? {} : { availabilityZone: spec.availabilityZone }),
        tags: [spec.name],
        listeners,
      },
      options,
    );
    let active: OctaviaLoadBalancer;
    try {
      active = await waitForActive(octavia, this.#context.wait, created.id, options);
    } catch (error) {
      // Upstream (createOctaviaLoadBalancer): one that lands in ERROR while being created is
      // deleted, and the next sync creates it again. One found in ERROR later is left alone.
      if (isOpenStackErrorKind(error, 'ProvisioningFailed')) {
        logger.warn('the new load balancer went to ERROR: deleting it; the next sync creates it again', { loadBalancer: spec.name, id: created.id });
        await this.#deleteLoadBalancer({ ...created, provisioningStatus: 'ERROR' }, options);
      }
      throw error;
    }
    if (!settings.serialApiCalls) return active;
    await reconcileChildren(this.#context, spec, active.id, members, { listeners: true }, options);
    return waitForActive(octavia, this.#context.wait, created.id, options);
  }

  async #deleteLoadBalancer(loadBalancer: OctaviaLoadBalancer, options?: CallOptions): Promise<void> {
    const { octavia, settings, logger } = this.#context;
    logger.info('deleting load balancer', { loadBalancer: loadBalancer.name, id: loadBalancer.id, cascade: settings.cascadeDelete });
    if (!settings.cascadeDelete) {
      // Children first (upstream without cascade-delete): monitors and members go with their pools.
      for (const pool of await octavia.listPools(loadBalancer.id, options)) {
        await changeLoadBalancer(this.#context, loadBalancer.id, () => ignoringNotFound(() => octavia.deletePool(pool.id, options)), options);
      }
      for (const listener of await octavia.listListeners(loadBalancer.id, options)) {
        await changeLoadBalancer(this.#context, loadBalancer.id, () => ignoringNotFound(() => octavia.deleteListener(listener.id, options)), options);
      }
    }
    if (loadBalancer.provisioningStatus !== 'ERROR') await waitForActive(octavia, this.#context.wait, loadBalancer.id, options).catch(() => undefined);
    await ignoringNotFound(() => octavia.deleteLoadBalancer(loadBalancer.id, settings.cascadeDelete, options));
    await waitForDeleted(octavia, this.#context.wait, loadBalancer.id, options);
  }

  /** On a load balancer shared with others: this Service's listeners (and their pools) and its tag. */
  async #removeServiceListeners(loadBalancer: OctaviaLoadBalancer, name: string, options?: CallOptions): Promise<void> {
    const { octavia } = this.#context;
    const pools = await octavia.listPools(loadBalancer.id, options);
    for (const listener of await octavia.listListeners(loadBalancer.id, options)) {
      if (!listener.tags.includes(name)) continue;
      for (const pool of pools.filter((candidate) => candidate.id === listener.defaultPoolId || candidate.listenerIds.includes(listener.id))) {
        await changeLoadBalancer(this.#context, loadBalancer.id, () => ignoringNotFound(() => octavia.deletePool(pool.id, options)), options);
      }
      await changeLoadBalancer(this.#context, loadBalancer.id, () => ignoringNotFound(() => octavia.deleteListener(listener.id, options)), options);
    }
    if (loadBalancer.tags.includes(name)) {
      const tags = loadBalancer.tags.filter((tag) => tag !== name);
      await changeLoadBalancer(this.#context, loadBalancer.id, () => octavia.updateLoadBalancerTags(loadBalancer.id, tags, options), options);
    }
  }

  /** `hostname` annotation -> hostname; PROXY protocol -> `<ip>.<suffix>` hostname or ipMode Proxy (upstream). */
  #statusOf(service: V1Service, address: string, spec?: LoadBalancerSpec): LoadBalancerStatus {
    let hostname: string | undefined;
    let proxy = false;
    try {
      const read = spec ?? buildLoadBalancerSpec(service, '', this.#context.settings);
      hostname = read.hostname;
      proxy = read.proxyProtocol;
    } catch {
      // A status read reports the address even when an annotation is malformed.
    }
    if (hostname !== undefined) return { ingress: [{ hostname }] };
    if (proxy && this.#context.settings.enableIngressHostname) return { ingress: [{ hostname: `${address}.${this.#context.settings.ingressHostnameSuffix}` }] };
    const ingress: LoadBalancerIngress = proxy ? { ip: address, ipMode: 'Proxy' } : { ip: address };
    return { ingress: [ingress] };
  }
}
