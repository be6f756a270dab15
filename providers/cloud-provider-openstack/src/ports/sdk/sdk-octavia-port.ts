/** The Octavia port over openstack-client-ts's Octavia client: the only code that sees Octavia's JSON. */
import type { HealthMonitor, Listener, LoadBalancer, Member, MemberSpec, OctaviaClient, Pool } from 'openstack-client-ts';
import type { CallOptions } from '@ccm/core/cloud';
import type {
  HealthMonitorSpec,
  ListenerSettings,
  ListenerSpec,
  OctaviaHealthMonitor,
  OctaviaListener,
  OctaviaLoadBalancer,
  OctaviaMember,
  OctaviaPool,
  OctaviaPort,
  PoolSpec,
  PopulatedListenerSpec,
} from '../octavia-port.js';
import { isOpenStackErrorKind } from '../openstack-api-error.js';
import { callOpenStack } from './sdk-errors.js';

function toLoadBalancer(loadBalancer: LoadBalancer): OctaviaLoadBalancer {
  return {
    id: loadBalancer.id,
    name: loadBalancer.name ?? '',
    description: loadBalancer.description ?? '',
    provisioningStatus: loadBalancer.provisioning_status,
    vipAddress: loadBalancer.vip_address ?? '',
    vipPortId: loadBalancer.vip_port_id ?? '',
    vipSubnetId: loadBalancer.vip_subnet_id ?? '',
    provider: loadBalancer.provider ?? '',
    tags: loadBalancer.tags ?? [],
  };
}

function toListener(listener: Listener): OctaviaListener {
  return {
    id: listener.id,
    name: listener.name ?? '',
    protocol: listener.protocol,
    port: listener.protocol_port,
    connectionLimit: listener.connection_limit,
    defaultPoolId: listener.default_pool_id ?? undefined,
    allowedCidrs: listener.allowed_cidrs ?? [],
    timeoutClientData: listener.timeout_client_data,
    timeoutMemberConnect: listener.timeout_member_connect,
    timeoutMemberData: listener.timeout_member_data,
    timeoutTcpInspect: listener.timeout_tcp_inspect,
    insertHeaders: listener.insert_headers ?? {},
    tags: listener.tags ?? [],
  };
}

function toPool(pool: Pool): OctaviaPool {
  return {
    id: pool.id,
    name: pool.name ?? '',
    protocol: pool.protocol,
    method: pool.lb_algorithm,
    sessionPersistence: pool.session_persistence === null || pool.session_persistence === undefined ? undefined : { type: pool.session_persistence.type },
    listenerIds: (pool.listeners ?? []).map((listener) => listener.id),
    healthMonitorId: pool.healthmonitor_id ?? undefined,
  };
}

function toMember(member: Member): OctaviaMember {
  return {
    id: member.id,
    name: member.name ?? '',
    address: member.address,
    port: member.protocol_port,
    ...(member.subnet_id === null || member.subnet_id === undefined ? {} : { subnetId: member.subnet_id }),
    ...(member.monitor_port === null || member.monitor_port === undefined ? {} : { monitorPort: member.monitor_port }),
  };
}

function toHealthMonitor(monitor: HealthMonitor): OctaviaHealthMonitor {
  return {
    id: monitor.id,
    name: monitor.name ?? '',
    type: monitor.type,
    delaySeconds: monitor.delay,
    timeoutSeconds: monitor.timeout,
    maxRetries: monitor.max_retries,
    maxRetriesDown: monitor.max_retries_down,
    ...(monitor.http_method === undefined || monitor.http_method === null ? {} : { httpMethod: monitor.http_method }),
    ...(monitor.url_path === undefined || monitor.url_path === null ? {} : { urlPath: monitor.url_path }),
    ...(monitor.expected_codes === undefined || monitor.expected_codes === null ? {} : { expectedCodes: monitor.expected_codes }),
  };
}

function memberSpec(member: OctaviaMember): MemberSpec {
  return {
    name: member.name,
    address: member.address,
    protocol_port: member.port,
    ...(member.subnetId === undefined ? {} : { subnet_id: member.subnetId }),
    ...(member.monitorPort === undefined ? {} : { monitor_port: member.monitorPort }),
  };
}

function monitorBody(spec: HealthMonitorSpec): Record<string, unknown> {
  return {
    name: spec.name,
    type: spec.type,
    delay: spec.delaySeconds,
    timeout: spec.timeoutSeconds,
    max_retries: spec.maxRetries,
    max_retries_down: spec.maxRetriesDown,
    ...(spec.httpMethod === undefined ? {} : { http_method: spec.httpMethod }),
    ...(spec.urlPath === undefined ? {} : { url_path: spec.urlPath }),
    ...(spec.expectedCodes === undefined ? {} : { expected_codes: spec.expectedCodes }),
  };
}

function listenerSettingsBody(settings: ListenerSettings): Record<string, unknown> {
  return {
    name: settings.name,
    connection_limit: settings.connectionLimit,
    // Octavia clears the list with an empty array; on create an empty list is left out.
    allowed_cidrs: settings.allowedCidrs,
    ...(settings.timeoutClientData === undefined ? {} : { timeout_client_data: settings.timeoutClientData }),
    ...(settings.timeoutMemberConnect === undefined ? {} : { timeout_member_connect: settings.timeoutMemberConnect }),
    ...(settings.timeoutMemberData === undefined ? {} : { timeout_member_data: settings.timeoutMemberData }),
    ...(settings.timeoutTcpInspect === undefined ? {} : { timeout_tcp_inspect: settings.timeoutTcpInspect }),
    insert_headers: settings.insertHeaders,
    tags: settings.tags,
  };
}

function listenerCreateBody(spec: ListenerSpec): Record<string, unknown> {
  const { allowed_cidrs: allowedCidrs, insert_headers: insertHeaders, ...settings } = listenerSettingsBody(spec);
  return {
    ...settings,
    protocol: spec.protocol,
    protocol_port: spec.port,
    ...(spec.allowedCidrs.length === 0 ? {} : { allowed_cidrs: allowedCidrs }),
    ...(Object.keys(spec.insertHeaders).length === 0 ? {} : { insert_headers: insertHeaders }),
  };
}

function poolBody(spec: PoolSpec): Record<string, unknown> {
  return { name: spec.name, protocol: spec.protocol, lb_algorithm: spec.method, ...(spec.sessionPersistence === undefined ? {} : { session_persistence: { type: spec.sessionPersistence.type } }) };
}

function populatedListenerBody(spec: PopulatedListenerSpec): Record<string, unknown> {
  return {
    ...listenerCreateBody(spec),
    default_pool: {
      ...poolBody(spec.pool),
      members: spec.pool.members.map(memberSpec),
      ...(spec.pool.healthMonitor === undefined ? {} : { healthmonitor: monitorBody(spec.pool.healthMonitor) }),
    },
  };
}

export function createSdkOctaviaPort(octavia: OctaviaClient): OctaviaPort {
  const signalOf = (options: CallOptions | undefined): AbortSignal | undefined => options?.signal;
  const listOptions = (options: CallOptions | undefined): { signal?: AbortSignal } => (options?.signal === undefined ? {} : { signal: options.signal });
  const orUndefinedOnNotFound = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (isOpenStackErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  };
  return {
    findLoadBalancersByName: (name, options) => callOpenStack('loadbalancer.listLoadBalancers', async () => (await octavia.loadBalancers.list({ name }, listOptions(options))).map(toLoadBalancer)),
    getLoadBalancer: (id, options) => orUndefinedOnNotFound(() => callOpenStack('loadbalancer.getLoadBalancer', async () => toLoadBalancer(await octavia.loadBalancers.get(id, signalOf(options))))),
    createLoadBalancer: (spec, options) =>
      callOpenStack('loadbalancer.createLoadBalancer', async () =>
        toLoadBalancer(
          await octavia.loadBalancers.create(
            {
              name: spec.name,
              description: spec.description,
              ...(spec.vipSubnetId === undefined ? {} : { vip_subnet_id: spec.vipSubnetId }),
              ...(spec.vipNetworkId === undefined ? {} : { vip_network_id: spec.vipNetworkId }),
              ...(spec.vipPortId === undefined ? {} : { vip_port_id: spec.vipPortId }),
              ...(spec.vipAddress === undefined ? {} : { vip_address: spec.vipAddress }),
              provider: spec.provider,
              ...(spec.flavorId === undefined ? {} : { flavor_id: spec.flavorId }),
              ...(spec.availabilityZone === undefined ? {} : { availability_zone: spec.availabilityZone }),
              tags: spec.tags,
              listeners: spec.listeners.map(populatedListenerBody),
            },
            signalOf(options),
          ),
        ),
      ),
    updateLoadBalancerTags: (id, tags, options) => callOpenStack('loadbalancer.updateLoadBalancer', async () => void (await octavia.loadBalancers.update(id, { tags }, signalOf(options)))),
    renameLoadBalancer: (id, name, tags, options) => callOpenStack('loadbalancer.updateLoadBalancer', async () => void (await octavia.loadBalancers.update(id, { name, tags }, signalOf(options)))),
    deleteLoadBalancer: (id, cascade, options) => callOpenStack('loadbalancer.deleteLoadBalancer', () => octavia.loadBalancers.delete(id, signalOf(options), { cascade })),

    listListeners: (loadBalancerId, options) => callOpenStack('loadbalancer.listListeners', async () => (await octavia.listeners.list({ loadbalancer_id: loadBalancerId }, listOptions(options))).map(toListener)),
    createListener: (loadBalancerId, spec, options) =>
      callOpenStack('loadbalancer.createListener', async () => toListener(await octavia.listeners.create({ loadbalancer_id: loadBalancerId, ...listenerCreateBody(spec) }, signalOf(options)))),
    updateListener: (id, settings, options) => callOpenStack('loadbalancer.updateListener', async () => void (await octavia.listeners.update(id, listenerSettingsBody(settings), signalOf(options)))),
    renameListener: (id, name, tags, options) => callOpenStack('loadbalancer.updateListener', async () => void (await octavia.listeners.update(id, { name, tags }, signalOf(options)))),
    deleteListener: (id, options) => callOpenStack('loadbalancer.deleteListener', () => octavia.listeners.delete(id, signalOf(options))),

    listPools: (loadBalancerId, options) => callOpenStack('loadbalancer.listPools', async () => (await octavia.pools.list({ loadbalancer_id: loadBalancerId }, listOptions(options))).map(toPool)),
    createPool: (listenerId, spec, options) => callOpenStack('loadbalancer.createPool', async () => toPool(await octavia.pools.create({ listener_id: listenerId, ...poolBody(spec) }, signalOf(options)))),
    updatePoolMethod: (id, method, options) => callOpenStack('loadbalancer.updatePool', async () => void (await octavia.pools.update(id, { lb_algorithm: method }, signalOf(options)))),
    renamePool: (id, name, options) => callOpenStack('loadbalancer.updatePool', async () => void (await octavia.pools.update(id, { name }, signalOf(options)))),
    deletePool: (id, options) => callOpenStack('loadbalancer.deletePool', () => octavia.pools.delete(id, signalOf(options))),

    listMembers: (poolId, options) => callOpenStack('loadbalancer.listMembers', async () => (await octavia.pools.listMembers(poolId, {}, listOptions(options))).map(toMember)),
    replaceMembers: (poolId, members, options) =>
      callOpenStack('loadbalancer.replaceMembers', () =>
        octavia.pools.replaceMembers(poolId, members.map(memberSpec), signalOf(options)),
      ),
    createMember: (poolId, member, options) =>
      callOpenStack('loadbalancer.createMember', async () => void (await octavia.pools.createMember(poolId, memberSpec(member), signalOf(options)))),
    deleteMember: (poolId, memberId, options) => callOpenStack('loadbalancer.deleteMember', () => octavia.pools.deleteMember(poolId, memberId, signalOf(options))),

    getHealthMonitor: (id, options) => orUndefinedOnNotFound(() => callOpenStack('loadbalancer.getHealthMonitor', async () => toHealthMonitor(await octavia.healthMonitors.get(id, signalOf(options))))),
    createHealthMonitor: (poolId, spec, options) =>
      callOpenStack('loadbalancer.createHealthMonitor', async () => toHealthMonitor(await octavia.healthMonitors.create({ pool_id: poolId, ...monitorBody(spec) }, signalOf(options)))),
    updateHealthMonitor: (id, spec, options) =>
      callOpenStack('loadbalancer.updateHealthMonitor', async () =>
        void (await octavia.healthMonitors.update(id, { name: spec.name, delay: spec.delaySeconds, timeout: spec.timeoutSeconds, max_retries: spec.maxRetries, max_retries_down: spec.maxRetriesDown }, signalOf(options))),
      ),
    deleteHealthMonitor: (id, options) => callOpenStack('loadbalancer.deleteHealthMonitor', () => octavia.healthMonitors.delete(id, signalOf(options))),
  };
}
