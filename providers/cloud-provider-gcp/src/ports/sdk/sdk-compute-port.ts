/**
 * The ComputePort over `@google-cloud/compute`: the only code that speaks the SDK's types. Lists
 * follow `nextPageToken`; mutating calls wait for their zonal, regional or global Operation with
 * the operations' `wait` method until it is DONE; every failure leaves as a `GceApiError`.
 */
import type { protos } from '@google-cloud/compute';
import { isGceErrorKind } from '../gce-api-error.js';
import type {
  ComputePort,
  GceAddress,
  GceBackendService,
  GceHealthCheck,
  GceFirewall,
  GceForwardingRule,
  GceHttpHealthCheck,
  GceInstance,
  GceNetworkInterface,
  GceRoute,
  GceTargetPool,
} from '../compute-port.js';
import type { ComputeClients } from './compute-clients.js';
import { operationError, toGceApiError } from './sdk-errors.js';

type IOperation = protos.google.cloud.compute.v1.IOperation;

/** A legacy HTTP health check as the REST API writes it (int64 fields are numbers here). */
interface RestHttpHealthCheck {
  name?: string;
  selfLink?: string;
  port?: number;
  requestPath?: string;
  checkIntervalSec?: number;
  timeoutSec?: number;
  healthyThreshold?: number;
  unhealthyThreshold?: number;
  description?: string;
}

export interface SdkComputePortOptions {
  project: string;
  /** Firewalls and routes (shared VPC). */
  networkProject: string;
  /** Pause between two `wait` calls of an operation that is not DONE yet (ms). */
  operationPollIntervalMs?: number;
}

/** Upstream polls operations at most once a second; `wait` itself blocks server-side. */
export const OPERATION_POLL_INTERVAL_MS = 1000;

const lastElement = (url: string | null | undefined): string => (url ?? '').split('/').at(-1) ?? '';
const strings = (values: ReadonlyArray<string | null | undefined> | null | undefined): string[] => (values ?? []).filter((value): value is string => typeof value === 'string');
const optional = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

function toInstance(instance: protos.google.cloud.compute.v1.IInstance): GceInstance {
  return {
    name: instance.name ?? '',
    zone: lastElement(instance.zone),
    selfLink: instance.selfLink ?? '',
    machineType: lastElement(instance.machineType),
    status: instance.status ?? '',
    tags: strings(instance.tags?.items),
    networkInterfaces: (instance.networkInterfaces ?? []).map(
      (nic): GceNetworkInterface => ({
        ...(nic.network ? { network: nic.network } : {}),
        ...(nic.subnetwork ? { subnetwork: nic.subnetwork } : {}),
        ...(nic.networkIP ? { networkIP: nic.networkIP } : {}),
        ...(nic.ipv6Address ? { ipv6Address: nic.ipv6Address } : {}),
        ...(nic.stackType ? { stackType: nic.stackType } : {}),
        ...(nic.ipv6AccessType ? { ipv6AccessType: nic.ipv6AccessType } : {}),
        accessConfigs: (nic.accessConfigs ?? []).map((config) => ({ ...(config.natIP ? { natIP: config.natIP } : {}) })),
        ipv6AccessConfigs: (nic.ipv6AccessConfigs ?? []).map((config) => ({ ...(config.externalIpv6 ? { externalIpv6: config.externalIpv6 } : {}) })),
      }),
    ),
  };
}

function toRoute(route: protos.google.cloud.compute.v1.IRoute): GceRoute {
  return {
    name: route.name ?? '',
    network: route.network ?? '',
    destRange: route.destRange ?? '',
    ...(route.nextHopInstance ? { nextHopInstance: route.nextHopInstance } : {}),
    ...(route.description ? { description: route.description } : {}),
    ...(typeof route.priority === 'number' ? { priority: route.priority } : {}),
  };
}

function toAddress(address: protos.google.cloud.compute.v1.IAddress): GceAddress {
  return {
    name: address.name ?? '',
    ...(address.address ? { address: address.address } : {}),
    ...(address.description ? { description: address.description } : {}),
    ...(address.networkTier ? { networkTier: address.networkTier } : {}),
    ...(address.addressType ? { addressType: address.addressType } : {}),
    ...(address.subnetwork ? { subnetwork: address.subnetwork } : {}),
  };
}

function toForwardingRule(rule: protos.google.cloud.compute.v1.IForwardingRule): GceForwardingRule {
  const fields: GceForwardingRule = { name: rule.name ?? '' };
  if (rule.IPAddress) fields.IPAddress = rule.IPAddress;
  if (rule.IPProtocol) fields.IPProtocol = rule.IPProtocol;
  if (rule.portRange) fields.portRange = rule.portRange;
  if (rule.target) fields.target = rule.target;
  if (rule.backendService) fields.backendService = rule.backendService;
  if (rule.networkTier) fields.networkTier = rule.networkTier;
  if (rule.loadBalancingScheme) fields.loadBalancingScheme = rule.loadBalancingScheme;
  if (rule.description) fields.description = rule.description;
  if (rule.ports && rule.ports.length > 0) fields.ports = strings(rule.ports);
  if (rule.allPorts) fields.allPorts = true;
  if (rule.network) fields.network = rule.network;
  if (rule.subnetwork) fields.subnetwork = rule.subnetwork;
  if (rule.allowGlobalAccess) fields.allowGlobalAccess = true;
  return fields;
}

function toTargetPool(pool: protos.google.cloud.compute.v1.ITargetPool): GceTargetPool {
  return {
    name: pool.name ?? '',
    ...(pool.selfLink ? { selfLink: pool.selfLink } : {}),
    instances: strings(pool.instances),
    healthChecks: strings(pool.healthChecks),
    ...(pool.sessionAffinity ? { sessionAffinity: pool.sessionAffinity } : {}),
    ...(pool.description ? { description: pool.description } : {}),
  };
}

function toHealthCheck(check: RestHttpHealthCheck): GceHttpHealthCheck {
  return {
    name: check.name ?? '',
    ...(check.selfLink ? { selfLink: check.selfLink } : {}),
    port: check.port ?? 80,
    requestPath: check.requestPath ?? '/',
    checkIntervalSec: check.checkIntervalSec ?? 5,
    timeoutSec: check.timeoutSec ?? 5,
    healthyThreshold: check.healthyThreshold ?? 2,
    unhealthyThreshold: check.unhealthyThreshold ?? 2,
    ...(check.description ? { description: check.description } : {}),
  };
}

function toNewHealthCheck(check: protos.google.cloud.compute.v1.IHealthCheck): GceHealthCheck {
  return {
    name: check.name ?? '',
    ...(check.selfLink ? { selfLink: check.selfLink } : {}),
    type: check.type ?? '',
    ...(typeof check.httpHealthCheck?.port === 'number' ? { port: check.httpHealthCheck.port } : {}),
    ...(check.httpHealthCheck ? { requestPath: check.httpHealthCheck.requestPath ?? '/' } : {}),
    checkIntervalSec: check.checkIntervalSec ?? 5,
    timeoutSec: check.timeoutSec ?? 5,
    healthyThreshold: check.healthyThreshold ?? 2,
    unhealthyThreshold: check.unhealthyThreshold ?? 2,
    ...(check.description ? { description: check.description } : {}),
  };
}

function newHealthCheckResource(check: GceHealthCheck): protos.google.cloud.compute.v1.IHealthCheck {
  return {
    name: check.name,
    type: check.type,
    description: check.description ?? '',
    checkIntervalSec: check.checkIntervalSec,
    timeoutSec: check.timeoutSec,
    healthyThreshold: check.healthyThreshold,
    unhealthyThreshold: check.unhealthyThreshold,
    httpHealthCheck: { ...(check.port === undefined ? {} : { port: check.port }), ...(check.requestPath === undefined ? {} : { requestPath: check.requestPath }) },
  };
}

function toBackendService(service: protos.google.cloud.compute.v1.IBackendService): GceBackendService {
  return {
    name: service.name ?? '',
    ...(service.selfLink ? { selfLink: service.selfLink } : {}),
    ...(service.protocol ? { protocol: service.protocol } : {}),
    ...(service.description ? { description: service.description } : {}),
    healthChecks: strings(service.healthChecks),
    backends: (service.backends ?? []).filter((backend) => typeof backend.group === 'string').map((backend) => ({ group: backend.group ?? '' })),
    ...(service.sessionAffinity ? { sessionAffinity: service.sessionAffinity } : {}),
    ...(service.loadBalancingScheme ? { loadBalancingScheme: service.loadBalancingScheme } : {}),
    ...(service.fingerprint ? { fingerprint: service.fingerprint } : {}),
  };
}

function backendServiceResource(service: GceBackendService): protos.google.cloud.compute.v1.IBackendService {
  return {
    name: service.name,
    description: service.description ?? '',
    healthChecks: service.healthChecks,
    backends: service.backends.map((backend) => ({ group: backend.group })),
    ...(service.protocol ? { protocol: service.protocol } : {}),
    ...(service.sessionAffinity ? { sessionAffinity: service.sessionAffinity } : {}),
    ...(service.loadBalancingScheme ? { loadBalancingScheme: service.loadBalancingScheme } : {}),
    ...(service.fingerprint ? { fingerprint: service.fingerprint } : {}),
  };
}

function toFirewall(firewall: protos.google.cloud.compute.v1.IFirewall): GceFirewall {
  return {
    name: firewall.name ?? '',
    network: firewall.network ?? '',
    ...(firewall.description ? { description: firewall.description } : {}),
    sourceRanges: strings(firewall.sourceRanges),
    destinationRanges: strings(firewall.destinationRanges),
    targetTags: strings(firewall.targetTags),
    allowed: (firewall.allowed ?? []).map((rule) => ({ IPProtocol: rule.IPProtocol ?? '', ...(rule.ports && rule.ports.length > 0 ? { ports: strings(rule.ports) } : {}) })),
    ...(typeof firewall.priority === 'number' ? { priority: firewall.priority } : {}),
  };
}

function firewallResource(firewall: GceFirewall): protos.google.cloud.compute.v1.IFirewall {
  return {
    name: firewall.name,
    network: firewall.network,
    description: firewall.description ?? '',
    sourceRanges: firewall.sourceRanges,
    destinationRanges: firewall.destinationRanges,
    targetTags: firewall.targetTags,
    allowed: firewall.allowed.map((rule) => ({ IPProtocol: rule.IPProtocol, ...(rule.ports ? { ports: rule.ports } : {}) })),
    ...(firewall.priority === undefined ? {} : { priority: firewall.priority }),
  };
}

function healthCheckResource(check: GceHttpHealthCheck): RestHttpHealthCheck {
  return {
    name: check.name,
    port: check.port,
    requestPath: check.requestPath,
    checkIntervalSec: check.checkIntervalSec,
    timeoutSec: check.timeoutSec,
    healthyThreshold: check.healthyThreshold,
    unhealthyThreshold: check.unhealthyThreshold,
    description: check.description ?? '',
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createSdkComputePort(clients: ComputeClients, options: SdkComputePortOptions): ComputePort {
  const { project, networkProject } = options;
  const pollIntervalMs = options.operationPollIntervalMs ?? OPERATION_POLL_INTERVAL_MS;

  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toGceApiError(error, `compute.${operation}`);
    }
  }

  async function get<T>(operation: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call(operation, run);
    } catch (error) {
      if (isGceErrorKind(error, 'NotFound')) return undefined;
      throw error;
    }
  }

  /** Waits for the Operation a mutating call returned; rejects with its error. */
  async function mutate(operation: string, operationProject: string, run: () => Promise<unknown>): Promise<void> {
    await call(operation, async () => {
      const answer = (await run()) as [{ latestResponse?: IOperation } & IOperation];
      let current: IOperation = answer[0].latestResponse ?? answer[0];
      for (let polls = 0; current.status !== 'DONE'; polls++) {
        if (polls > 0) await sleep(pollIntervalMs);
        const name = current.name ?? '';
        if (current.zone) [current] = await clients.zoneOperations.wait({ project: operationProject, zone: lastElement(current.zone), operation: name });
        else if (current.region) [current] = await clients.regionOperations.wait({ project: operationProject, region: lastElement(current.region), operation: name });
        else [current] = await clients.globalOperations.wait({ project: operationProject, operation: name });
      }
      const errors = current.error?.errors ?? [];
      if (errors.length > 0) throw operationError(errors, optional(current.httpErrorStatusCode), `compute.${operation}`);
    });
  }

  return {
    listInstances: (request) =>
      call('listInstances', async () => {
        if (request.names.length === 0) return [];
        const filter = `name eq "(${request.names.map(escapeRegex).join('|')})"`;
        const found: GceInstance[] = [];
        if (request.zone !== undefined) {
          for await (const instance of clients.instances.listAsync({ project, zone: request.zone, filter })) found.push(toInstance(instance));
        } else {
          for await (const [, scoped] of clients.instances.aggregatedListAsync({ project, filter })) {
            for (const instance of scoped.instances ?? []) found.push(toInstance(instance));
          }
        }
        return found;
      }),
    getInstance: (zone, name) => get('getInstance', async () => toInstance((await clients.instances.get({ project, zone, instance: name }))[0])),

    listRoutes: (request) =>
      call('listRoutes', async () => {
        const filter = `(name eq "${escapeRegex(request.namePrefix)}.*") (description eq "${escapeRegex(request.description)}")`;
        const found: GceRoute[] = [];
        for await (const route of clients.routes.listAsync({ project: networkProject, filter })) found.push(toRoute(route));
        const network = lastElement(request.network);
        return found.filter((route) => lastElement(route.network) === network);
      }),
    insertRoute: (route) =>
      mutate('insertRoute', networkProject, () =>
        clients.routes.insert({
          project: networkProject,
          routeResource: {
            name: route.name,
            network: route.network,
            destRange: route.destRange,
            ...(route.nextHopInstance ? { nextHopInstance: route.nextHopInstance } : {}),
            ...(route.description ? { description: route.description } : {}),
            ...(route.priority === undefined ? {} : { priority: route.priority }),
          },
        }),
      ),
    deleteRoute: (name) => mutate('deleteRoute', networkProject, () => clients.routes.delete({ project: networkProject, route: name })),

    getAddress: (region, name) => get('getAddress', async () => toAddress((await clients.addresses.get({ project, region, address: name }))[0])),
    findAddressByIp: (region, ip) =>
      call('findAddressByIp', async () => {
        for await (const address of clients.addresses.listAsync({ project, region, filter: `address eq "${escapeRegex(ip)}"` })) {
          if (address.address === ip) return toAddress(address);
        }
        return undefined;
      }),
    insertAddress: (region, address) =>
      mutate('insertAddress', project, () =>
        clients.addresses.insert({
          project,
          region,
          addressResource: {
            name: address.name,
            ...(address.address ? { address: address.address } : {}),
            ...(address.description ? { description: address.description } : {}),
            ...(address.networkTier ? { networkTier: address.networkTier } : {}),
            ...(address.addressType ? { addressType: address.addressType } : {}),
            ...(address.subnetwork ? { subnetwork: address.subnetwork } : {}),
          },
        }),
      ),
    deleteAddress: (region, name) => mutate('deleteAddress', project, () => clients.addresses.delete({ project, region, address: name })),

    getForwardingRule: (region, name) => get('getForwardingRule', async () => toForwardingRule((await clients.forwardingRules.get({ project, region, forwardingRule: name }))[0])),
    insertForwardingRule: (region, rule) =>
      mutate('insertForwardingRule', project, () => clients.forwardingRules.insert({ project, region, forwardingRuleResource: { ...rule } })),
    deleteForwardingRule: (region, name) => mutate('deleteForwardingRule', project, () => clients.forwardingRules.delete({ project, region, forwardingRule: name })),

    getTargetPool: (region, name) => get('getTargetPool', async () => toTargetPool((await clients.targetPools.get({ project, region, targetPool: name }))[0])),
    insertTargetPool: (region, pool) =>
      mutate('insertTargetPool', project, () =>
        clients.targetPools.insert({
          project,
          region,
          targetPoolResource: {
            name: pool.name,
            instances: pool.instances,
            healthChecks: pool.healthChecks,
            ...(pool.sessionAffinity ? { sessionAffinity: pool.sessionAffinity } : {}),
            ...(pool.description ? { description: pool.description } : {}),
          },
        }),
      ),
    deleteTargetPool: (region, name) => mutate('deleteTargetPool', project, () => clients.targetPools.delete({ project, region, targetPool: name })),
    addTargetPoolInstances: (region, name, instanceUrls) =>
      mutate('addTargetPoolInstances', project, () =>
        clients.targetPools.addInstance({ project, region, targetPool: name, targetPoolsAddInstanceRequestResource: { instances: instanceUrls.map((instance) => ({ instance })) } }),
      ),
    removeTargetPoolInstances: (region, name, instanceUrls) =>
      mutate('removeTargetPoolInstances', project, () =>
        clients.targetPools.removeInstance({ project, region, targetPool: name, targetPoolsRemoveInstanceRequestResource: { instances: instanceUrls.map((instance) => ({ instance })) } }),
      ),

    getHttpHealthCheck: (name) =>
      get('getHttpHealthCheck', async () => toHealthCheck(await clients.httpHealthChecks.request<RestHttpHealthCheck>('GET', `projects/${project}/global/httpHealthChecks/${encodeURIComponent(name)}`))),
    insertHttpHealthCheck: (check) =>
      mutate('insertHttpHealthCheck', project, async () => [await clients.httpHealthChecks.request<IOperation>('POST', `projects/${project}/global/httpHealthChecks`, healthCheckResource(check))]),
    updateHttpHealthCheck: (check) =>
      mutate('updateHttpHealthCheck', project, async () => [
        await clients.httpHealthChecks.request<IOperation>('PUT', `projects/${project}/global/httpHealthChecks/${encodeURIComponent(check.name)}`, healthCheckResource(check)),
      ]),
    deleteHttpHealthCheck: (name) =>
      mutate('deleteHttpHealthCheck', project, async () => [await clients.httpHealthChecks.request<IOperation>('DELETE', `projects/${project}/global/httpHealthChecks/${encodeURIComponent(name)}`)]),

    getHealthCheck: (name) => get('getHealthCheck', async () => toNewHealthCheck((await clients.healthChecks.get({ project, healthCheck: name }))[0])),
    insertHealthCheck: (check) => mutate('insertHealthCheck', project, () => clients.healthChecks.insert({ project, healthCheckResource: newHealthCheckResource(check) })),
    updateHealthCheck: (check) =>
      mutate('updateHealthCheck', project, () => clients.healthChecks.update({ project, healthCheck: check.name, healthCheckResource: newHealthCheckResource(check) })),
    deleteHealthCheck: (name) => mutate('deleteHealthCheck', project, () => clients.healthChecks.delete({ project, healthCheck: name })),

    getRegionBackendService: (region, name) =>
      get('getRegionBackendService', async () => toBackendService((await clients.regionBackendServices.get({ project, region, backendService: name }))[0])),
    insertRegionBackendService: (region, service) =>
      mutate('insertRegionBackendService', project, () => clients.regionBackendServices.insert({ project, region, backendServiceResource: backendServiceResource(service) })),
    updateRegionBackendService: (region, service) =>
      mutate('updateRegionBackendService', project, () =>
        clients.regionBackendServices.update({ project, region, backendService: service.name, backendServiceResource: backendServiceResource(service) }),
      ),
    deleteRegionBackendService: (region, name) => mutate('deleteRegionBackendService', project, () => clients.regionBackendServices.delete({ project, region, backendService: name })),

    getInstanceGroup: (zone, name) =>
      get('getInstanceGroup', async () => {
        const [group] = await clients.instanceGroups.get({ project, zone, instanceGroup: name });
        return { name: group.name ?? '', zone: lastElement(group.zone) || zone, ...(group.selfLink ? { selfLink: group.selfLink } : {}), ...(group.description ? { description: group.description } : {}) };
      }),
    insertInstanceGroup: (group) =>
      mutate('insertInstanceGroup', project, () =>
        clients.instanceGroups.insert({ project, zone: group.zone, instanceGroupResource: { name: group.name, ...(group.description ? { description: group.description } : {}) } }),
      ),
    deleteInstanceGroup: (zone, name) => mutate('deleteInstanceGroup', project, () => clients.instanceGroups.delete({ project, zone, instanceGroup: name })),
    listInstanceGroupInstances: (zone, name) =>
      call('listInstanceGroupInstances', async () => {
        const members: string[] = [];
        for await (const member of clients.instanceGroups.listInstancesAsync({ project, zone, instanceGroup: name, instanceGroupsListInstancesRequestResource: { instanceState: 'ALL' } })) {
          if (member.instance) members.push(member.instance);
        }
        return members;
      }),
    addInstanceGroupInstances: (zone, name, instanceUrls) =>
      mutate('addInstanceGroupInstances', project, () =>
        clients.instanceGroups.addInstances({ project, zone, instanceGroup: name, instanceGroupsAddInstancesRequestResource: { instances: instanceUrls.map((instance) => ({ instance })) } }),
      ),
    removeInstanceGroupInstances: (zone, name, instanceUrls) =>
      mutate('removeInstanceGroupInstances', project, () =>
        clients.instanceGroups.removeInstances({ project, zone, instanceGroup: name, instanceGroupsRemoveInstancesRequestResource: { instances: instanceUrls.map((instance) => ({ instance })) } }),
      ),

    listZones: (region) =>
      call('listZones', async () => {
        const names: string[] = [];
        for await (const zone of clients.zones.listAsync({ project, filter: `region eq ".*/regions/${escapeRegex(region)}"` })) {
          if (zone.name && lastElement(zone.region) === region) names.push(zone.name);
        }
        return names;
      }),

    getFirewall: (name) => get('getFirewall', async () => toFirewall((await clients.firewalls.get({ project: networkProject, firewall: name }))[0])),
    insertFirewall: (firewall) => mutate('insertFirewall', networkProject, () => clients.firewalls.insert({ project: networkProject, firewallResource: firewallResource(firewall) })),
    patchFirewall: (firewall) =>
      mutate('patchFirewall', networkProject, () => clients.firewalls.patch({ project: networkProject, firewall: firewall.name, firewallResource: firewallResource(firewall) })),
    deleteFirewall: (name) => mutate('deleteFirewall', networkProject, () => clients.firewalls.delete({ project: networkProject, firewall: name })),
  };
}

