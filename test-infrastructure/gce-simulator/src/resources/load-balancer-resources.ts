import { syncAddressUsers } from '../address-users.js';
import { collectionRoutes, locateIn, mutationOperation, requireBody, restore, type CollectionSpec } from '../collection-routes.js';
import type { ComputeRoute } from '../compute-route.js';
import { EMPTY_LABEL_FINGERPRINT, type ComputeState } from '../compute-state.js';
import { GceError, invalidField, requiredField } from '../gce-error.js';
import { allocateExternalAddress, allocateInternalAddress, ipHolders } from '../ip-allocation.js';
import { ipv4ToNumber, parseIpv4Range, rangeContains } from '../ipv4.js';
import { records, resolveReference, strings, type ResolvedReference } from '../references.js';
import { collectionPath, normalizeReference, parseResourcePath, type ResourceScope } from '../resource-links.js';
import { globalCollection, pathsOfAny, regionCollection } from './network-resources.js';

function regionOf(scope: ResourceScope): string {
  return scope.type === 'region' ? scope.name : '';
}

function positiveInteger(field: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidField(field, value, 'Must be a positive integer.');
  return value;
}

function port(field: string, value: unknown, fallback: number | undefined): number | undefined {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) throw invalidField(field, value, 'Must be a port in [1, 65535].');
  return value;
}

/** interval, timeout and thresholds shared by both health-check kinds (Compute's defaults: 5, 5, 2, 2). */
function healthCheckTimings(body: Record<string, unknown>): Record<string, number> {
  const checkIntervalSec = positiveInteger('resource.checkIntervalSec', body['checkIntervalSec'], 5);
  const timeoutSec = positiveInteger('resource.timeoutSec', body['timeoutSec'], 5);
  if (timeoutSec > checkIntervalSec) throw invalidField('resource.timeoutSec', timeoutSec, 'timeoutSec must be less than or equal to checkIntervalSec.');
  return {
    checkIntervalSec,
    timeoutSec,
    unhealthyThreshold: positiveInteger('resource.unhealthyThreshold', body['unhealthyThreshold'], 2),
    healthyThreshold: positiveInteger('resource.healthyThreshold', body['healthyThreshold'], 2),
  };
}

function httpHealthCheckSpec(): CollectionSpec {
  return {
    apiResource: 'httpHealthChecks',
    collection: 'httpHealthChecks',
    scope: 'global',
    nameParam: 'httpHealthCheck',
    kind: 'compute#httpHealthCheck',
    listKind: 'compute#httpHealthCheckList',
    update: true,
    patch: true,
    references: () => [],
    build: ({ body }) => ({
      ...(typeof body['host'] === 'string' ? { host: body['host'] } : {}),
      port: port('resource.port', body['port'], 80),
      requestPath: typeof body['requestPath'] === 'string' ? body['requestPath'] : '/',
      ...healthCheckTimings(body),
    }),
  };
}

const HEALTH_CHECK_TYPES: Record<string, string> = {
  TCP: 'tcpHealthCheck',
  SSL: 'sslHealthCheck',
  HTTP: 'httpHealthCheck',
  HTTPS: 'httpsHealthCheck',
  HTTP2: 'http2HealthCheck',
  GRPC: 'grpcHealthCheck',
};

function healthCheckSpec(scope: 'global' | 'region'): CollectionSpec {
  return {
    apiResource: scope === 'global' ? 'healthChecks' : 'regionHealthChecks',
    collection: 'healthChecks',
    scope,
    nameParam: 'healthCheck',
    kind: 'compute#healthCheck',
    listKind: 'compute#healthCheckList',
    update: true,
    patch: true,
    references: () => [],
    build: ({ body }) => {
      const given = Object.entries(HEALTH_CHECK_TYPES).filter(([, field]) => body[field] !== undefined);
      const type = body['type'] ?? given[0]?.[0];
      if (type === undefined) throw requiredField('resource.type');
      const field = typeof type === 'string' ? HEALTH_CHECK_TYPES[type] : undefined;
      if (field === undefined) throw invalidField('resource.type', type, `Must be one of ${Object.keys(HEALTH_CHECK_TYPES).join(', ')}.`);
      const other = given.find(([name]) => name !== type);
      if (other !== undefined) throw invalidField(`resource.${other[1]}`, body[other[1]], `It does not match type ${String(type)}.`);
      const detail = records([body[field]])[0] ?? {};
      const portSpecification = detail['portSpecification'];
      const built: Record<string, unknown> = {
        ...detail,
        ...(portSpecification === 'USE_SERVING_PORT' || detail['portName'] !== undefined ? {} : { port: port(`resource.${field}.port`, detail['port'], type === 'HTTPS' ? 443 : 80) }),
        proxyHeader: detail['proxyHeader'] ?? 'NONE',
      };
      if (type === 'HTTP' || type === 'HTTPS' || type === 'HTTP2') built['requestPath'] = detail['requestPath'] ?? '/';
      return { type, [field]: built, ...healthCheckTimings(body) };
    },
  };
}

function targetPoolSpec(): CollectionSpec {
  return {
    apiResource: 'targetPools',
    collection: 'targetPools',
    scope: 'region',
    nameParam: 'targetPool',
    kind: 'compute#targetPool',
    listKind: 'compute#targetPoolList',
    aggregatedListKind: 'compute#targetPoolAggregatedList',
    references: (pool) => pathsOfAny(...strings(pool['healthChecks'])),
    build: ({ state, body, scope }) => {
      const instances = strings(body['instances']).map((instance, index) => poolInstance(state, `resource.instances[${index}]`, instance, regionOf(scope)).link);
      const healthChecks = strings(body['healthChecks']).map(
        (check, index) => resolveReference(state, `resource.healthChecks[${index}]`, check, ['httpHealthChecks'], globalCollection(state, 'httpHealthChecks')).link,
      );
      if (healthChecks.length > 1) throw invalidField('resource.healthChecks', body['healthChecks'], 'A target pool can have at most one health check.');
      const sessionAffinity = body['sessionAffinity'] ?? 'NONE';
      if (!['NONE', 'CLIENT_IP', 'CLIENT_IP_PROTO'].includes(String(sessionAffinity))) throw invalidField('resource.sessionAffinity', sessionAffinity, 'Must be NONE, CLIENT_IP or CLIENT_IP_PROTO.');
      return {
        ...(instances.length > 0 ? { instances: [...new Set(instances)] } : {}),
        ...(healthChecks.length > 0 ? { healthChecks } : {}),
        sessionAffinity,
      };
    },
  };
}

function poolInstance(state: ComputeState, field: string, value: unknown, region: string): ResolvedReference {
  const instance = resolveReference(state, field, value, ['instances']);
  if (!state.world.zones.some((zone) => instance.path.includes(`/zones/${zone}/`)) || !instance.path.includes(`/zones/${region}-`)) {
    throw invalidField(field, value, `The instance must be in a zone of region '${region}'.`);
  }
  return instance;
}

const POOLS = { scope: 'region', collection: 'targetPools', nameParam: 'targetPool' } as const;

function targetPoolCustomRoutes(state: ComputeState): ComputeRoute[] {
  const one = 'projects/{project}/regions/{region}/targetPools/{targetPool}';
  const change = (verb: 'addInstance' | 'removeInstance' | 'addHealthCheck' | 'removeHealthCheck'): ComputeRoute => ({
    id: `compute.targetPools.${verb}`,
    httpMethod: 'POST',
    path: `${one}/${verb}`,
    handle: (request) => {
      const { project, scope, path, resource } = locateIn(state, POOLS, request);
      const body = requireBody(request);
      const region = regionOf(scope);
      if (verb === 'addInstance' || verb === 'removeInstance') {
        const entries = records(body['instances']);
        const links =
          verb === 'addInstance'
            ? entries.map((entry, index) => poolInstance(state, `instances[${index}].instance`, entry['instance'], region).link)
            : entries.map((entry, index) => state.link(normalizeReference(`instances[${index}].instance`, entry['instance'], project)));
        const current = strings(resource['instances']);
        const next = verb === 'addInstance' ? [...new Set([...current, ...links])] : current.filter((link) => !links.includes(link));
        if (next.length > 0) resource['instances'] = next;
        else delete resource['instances'];
      } else {
        const entries = records(body['healthChecks']);
        const links =
          verb === 'addHealthCheck'
            ? entries.map((entry, index) => resolveReference(state, `healthChecks[${index}].healthCheck`, entry['healthCheck'], ['httpHealthChecks'], globalCollection(state, 'httpHealthChecks')).link)
            : entries.map((entry, index) => state.link(normalizeReference(`healthChecks[${index}].healthCheck`, entry['healthCheck'], project, globalCollection(state, 'httpHealthChecks'))));
        const current = strings(resource['healthChecks']);
        const next = verb === 'addHealthCheck' ? [...new Set([...current, ...links])] : current.filter((link) => !links.includes(link));
        if (next.length > 1) throw invalidField('healthChecks', links, 'A target pool can have at most one health check.');
        if (next.length > 0) resource['healthChecks'] = next;
        else delete resource['healthChecks'];
      }
      restore(state, {}, path, resource);
      return mutationOperation(state, project, scope, verb, resource);
    },
  });
  return [change('addInstance'), change('removeInstance'), change('addHealthCheck'), change('removeHealthCheck')];
}

const BACKEND_PROTOCOLS = ['TCP', 'UDP', 'HTTP', 'HTTPS', 'HTTP2', 'SSL', 'GRPC', 'UNSPECIFIED'];
const SESSION_AFFINITIES = ['NONE', 'CLIENT_IP', 'CLIENT_IP_PROTO', 'CLIENT_IP_PORT_PROTO', 'CLIENT_IP_NO_DESTINATION', 'GENERATED_COOKIE', 'HEADER_FIELD', 'HTTP_COOKIE'];
const SCHEMES = ['EXTERNAL', 'INTERNAL', 'INTERNAL_MANAGED', 'INTERNAL_SELF_MANAGED', 'EXTERNAL_MANAGED'];

function backendServiceSpec(): CollectionSpec {
  return {
    apiResource: 'regionBackendServices',
    collection: 'backendServices',
    scope: 'region',
    nameParam: 'backendService',
    kind: 'compute#backendService',
    listKind: 'compute#backendServiceList',
    update: true,
    patch: true,
    fingerprinted: true,
    references: (service) => pathsOfAny(...strings(service['healthChecks']), ...records(service['backends']).map((backend) => backend['group']), service['network']),
    build: ({ state, body, scope }) => {
      const region = regionOf(scope);
      const protocol = body['protocol'] ?? 'TCP';
      if (!BACKEND_PROTOCOLS.includes(String(protocol))) throw invalidField('resource.protocol', protocol, `Must be one of ${BACKEND_PROTOCOLS.join(', ')}.`);
      const scheme = body['loadBalancingScheme'] ?? 'EXTERNAL';
      if (!SCHEMES.includes(String(scheme))) throw invalidField('resource.loadBalancingScheme', scheme, `Must be one of ${SCHEMES.join(', ')}.`);
      const sessionAffinity = body['sessionAffinity'] ?? 'NONE';
      if (!SESSION_AFFINITIES.includes(String(sessionAffinity))) throw invalidField('resource.sessionAffinity', sessionAffinity, `Must be one of ${SESSION_AFFINITIES.join(', ')}.`);
      const healthChecks = strings(body['healthChecks']).map((check, index) => {
        const path = normalizeReference(`resource.healthChecks[${index}]`, check, state.world.project, globalCollection(state, 'healthChecks'));
        const parsed = parseResourcePath(path);
        if (parsed?.scope.type === 'region' && parsed.scope.name !== region) throw invalidField(`resource.healthChecks[${index}]`, check, `A regional health check must be in region '${region}'.`);
        return resolveReference(state, `resource.healthChecks[${index}]`, check, ['healthChecks'], globalCollection(state, 'healthChecks')).link;
      });
      if (healthChecks.length > 1) throw invalidField('resource.healthChecks', body['healthChecks'], 'A backend service can have at most one health check.');
      const backends = records(body['backends']).map((backend, index) => {
        const group = resolveReference(state, `resource.backends[${index}].group`, backend['group'], ['instanceGroups']);
        if (!group.path.includes(`/zones/${region}-`)) throw invalidField(`resource.backends[${index}].group`, backend['group'], `The group must be in a zone of region '${region}'.`);
        return { ...backend, group: group.link, balancingMode: backend['balancingMode'] ?? 'CONNECTION' };
      });
      const groups = backends.map((backend) => backend.group);
      if (new Set(groups).size !== groups.length) throw invalidField('resource.backends', groups, 'Duplicate instance group.');
      const network = body['network'] === undefined ? undefined : resolveReference(state, 'resource.network', body['network'], ['networks'], globalCollection(state, 'networks'));
      const draining = records([body['connectionDraining']])[0];
      const { kind: _kind, id: _id, creationTimestamp: _created, selfLink: _self, region: _region, fingerprint: _fingerprint, name: _name, ...rest } = body;
      return {
        ...rest,
        protocol,
        loadBalancingScheme: scheme,
        sessionAffinity,
        ...(healthChecks.length > 0 ? { healthChecks } : {}),
        ...(backends.length > 0 ? { backends } : {}),
        ...(network === undefined ? {} : { network: network.link }),
        timeoutSec: body['timeoutSec'] ?? 30,
        connectionDraining: { drainingTimeoutSec: draining?.['drainingTimeoutSec'] ?? 0 },
      };
    },
  };
}

const FORWARDING_PROTOCOLS = ['TCP', 'UDP', 'ESP', 'AH', 'SCTP', 'ICMP', 'L3_DEFAULT'];

function portRangeOf(value: unknown): { low: number; high: number; text: string } | undefined {
  if (value === undefined || value === null) return undefined;
  const match = typeof value === 'string' ? /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(value) : null;
  const low = Number(match?.[1]);
  const high = match?.[2] === undefined ? low : Number(match[2]);
  if (match === null || low < 1 || high > 65535 || low > high) throw invalidField('resource.portRange', value, 'Must be a port or a range such as 80-8080.');
  return { low, high, text: `${low}-${high}` };
}

function portsOverlap(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const spans = (rule: Record<string, unknown>): [number, number][] => {
    if (rule['allPorts'] === true) return [[1, 65535]];
    const range = typeof rule['portRange'] === 'string' ? rule['portRange'].split('-').map(Number) : undefined;
    if (range !== undefined) return [[range[0] ?? 0, range[1] ?? 0]];
    const ports = strings(rule['ports']).map(Number);
    return ports.length > 0 ? ports.map((value) => [value, value]) : [[1, 65535]];
  };
  return spans(a).some(([lowA, highA]) => spans(b).some(([lowB, highB]) => lowA <= highB && lowB <= highA));
}

function forwardingRuleSpec(): CollectionSpec {
  return {
    apiResource: 'forwardingRules',
    collection: 'forwardingRules',
    scope: 'region',
    nameParam: 'forwardingRule',
    kind: 'compute#forwardingRule',
    listKind: 'compute#forwardingRuleList',
    aggregatedListKind: 'compute#forwardingRuleAggregatedList',
    fingerprinted: true,
    references: (rule) => pathsOfAny(rule['target'], rule['backendService'], rule['network'], rule['subnetwork']),
    build: ({ state, body, scope, path }) => {
      const region = regionOf(scope);
      const protocol = body['IPProtocol'] ?? 'TCP';
      if (!FORWARDING_PROTOCOLS.includes(String(protocol))) throw invalidField('resource.IPProtocol', protocol, `Must be one of ${FORWARDING_PROTOCOLS.join(', ')}.`);
      const scheme = body['loadBalancingScheme'] ?? 'EXTERNAL';
      if (scheme !== 'EXTERNAL' && scheme !== 'INTERNAL') throw invalidField('resource.loadBalancingScheme', scheme, 'The simulator serves EXTERNAL and INTERNAL forwarding rules.');
      if ((body['target'] === undefined) === (body['backendService'] === undefined)) throw new GceError('invalid', "Invalid value for field 'resource': exactly one of 'target' or 'backendService' must be specified.");
      const target = body['target'] === undefined ? undefined : resolveReference(state, 'resource.target', body['target'], ['targetPools'], regionCollection(state, region, 'targetPools'));
      const backendService =
        body['backendService'] === undefined ? undefined : resolveReference(state, 'resource.backendService', body['backendService'], ['backendServices'], regionCollection(state, region, 'backendServices'));
      if (scheme === 'INTERNAL' && backendService === undefined) throw requiredField('resource.backendService');
      if (backendService !== undefined && backendService.resource['loadBalancingScheme'] !== scheme) {
        throw invalidField('resource.backendService', body['backendService'], `The backend service's loadBalancingScheme is ${String(backendService.resource['loadBalancingScheme'])}, not ${String(scheme)}.`);
      }
      const portRange = portRangeOf(body['portRange']);
      const ports = strings(body['ports']);
      if (ports.length > 5) throw invalidField('resource.ports', ports, 'At most 5 ports; use allPorts.');
      if (ports.length > 0 && portRange !== undefined) throw invalidField('resource.ports', ports, 'ports and portRange cannot both be set.');
      if (ports.length > 0 && target !== undefined) throw invalidField('resource.ports', ports, 'ports apply to backend-service forwarding rules; use portRange with a target pool.');
      const rule: Record<string, unknown> = {
        IPProtocol: protocol,
        loadBalancingScheme: scheme,
        ...(portRange === undefined ? {} : { portRange: portRange.text }),
        ...(ports.length > 0 ? { ports } : {}),
        ...(body['allPorts'] === true ? { allPorts: true } : {}),
        ...(target === undefined ? {} : { target: target.link }),
        ...(backendService === undefined ? {} : { backendService: backendService.link }),
        labelFingerprint: EMPTY_LABEL_FINGERPRINT,
        ipVersion: 'IPV4',
      };
      let requested = body['IPAddress'];
      if (typeof requested === 'string' && ipv4ToNumber(requested) === undefined) {
        requested = resolveReference(state, 'resource.IPAddress', requested, ['addresses'], regionCollection(state, region, 'addresses')).resource['address'];
      }
      if (scheme === 'INTERNAL') {
        const subnetwork =
          body['subnetwork'] === undefined
            ? defaultSubnetwork(state, region, body['network'])
            : resolveReference(state, 'resource.subnetwork', body['subnetwork'], ['subnetworks'], regionCollection(state, region, 'subnetworks'));
        const network = resolveReference(state, 'resource.network', body['network'] ?? subnetwork.resource['network'], ['networks'], globalCollection(state, 'networks'));
        if (subnetwork.resource['network'] !== network.link) throw invalidField('resource.subnetwork', body['subnetwork'], `The subnetwork is not in network '${network.path}'.`);
        const cidr = String(subnetwork.resource['ipCidrRange']);
        if (requested !== undefined && (typeof requested !== 'string' || !rangeContains(parseIpv4Range('ipCidrRange', cidr), requested))) {
          throw invalidField('resource.IPAddress', requested, `It is not in the subnetwork range ${cidr}.`);
        }
        rule['IPAddress'] = requested ?? allocateInternalAddress(state, cidr, subnetwork.path);
        rule['network'] = network.link;
        rule['subnetwork'] = subnetwork.link;
        rule['allowGlobalAccess'] = body['allowGlobalAccess'] === true;
      } else {
        if (body['allowGlobalAccess'] !== undefined) throw invalidField('resource.allowGlobalAccess', body['allowGlobalAccess'], 'Only INTERNAL forwarding rules have global access.');
        const tier = body['networkTier'] ?? 'PREMIUM';
        if (tier !== 'PREMIUM' && tier !== 'STANDARD') throw invalidField('resource.networkTier', tier, 'Must be PREMIUM or STANDARD.');
        rule['networkTier'] = tier;
        if (requested !== undefined) {
          const reserved = state.list(regionCollection(state, region, 'addresses')).find((address) => address['address'] === requested);
          if (reserved !== undefined && reserved['networkTier'] !== tier) {
            throw invalidField('resource.networkTier', tier, `The address '${reserved.name}' is in tier ${String(reserved['networkTier'])}.`);
          }
        }
        rule['IPAddress'] = requested ?? allocateExternalAddress(state);
      }
      for (const other of state.list(regionCollection(state, region, 'forwardingRules'))) {
        if (String(other['selfLink']).endsWith(`/${path}`)) continue;
        if (other['IPAddress'] === rule['IPAddress'] && other['IPProtocol'] === rule['IPProtocol'] && portsOverlap(other, rule)) {
          throw invalidField('resource.IPAddress', rule['IPAddress'], `The IP address and port range are already being used by '${String(other['selfLink'])}'.`);
        }
      }
      const instanceHolder = ipHolders(state).get(String(rule['IPAddress']))?.find((holder) => holder.includes('/instances/'));
      if (instanceHolder !== undefined) throw invalidField('resource.IPAddress', rule['IPAddress'], `The IP address is already being used by '${instanceHolder}'.`);
      return rule;
    },
    afterWrite: (state) => syncAddressUsers(state),
    afterDelete: (state) => syncAddressUsers(state),
  };
}

function defaultSubnetwork(state: ComputeState, region: string, network: unknown): ResolvedReference {
  const networkLink = resolveReference(state, 'resource.network', network ?? `global/networks/${state.world.network}`, ['networks'], globalCollection(state, 'networks')).link;
  const found = state.list(regionCollection(state, region, 'subnetworks')).find((subnetwork) => subnetwork['network'] === networkLink);
  if (found === undefined) throw requiredField('resource.subnetwork');
  const path = normalizeReference('subnetwork', found['selfLink'], state.world.project);
  return { path, link: state.link(path), resource: found };
}

function addressSpec(): CollectionSpec {
  return {
    apiResource: 'addresses',
    collection: 'addresses',
    scope: 'region',
    nameParam: 'address',
    kind: 'compute#address',
    listKind: 'compute#addressList',
    aggregatedListKind: 'compute#addressAggregatedList',
    references: (address) => pathsOfAny(address['subnetwork'], address['network']),
    build: ({ state, body, scope }) => {
      const region = regionOf(scope);
      const addressType = body['addressType'] ?? 'EXTERNAL';
      if (addressType !== 'EXTERNAL' && addressType !== 'INTERNAL') throw invalidField('resource.addressType', addressType, 'Must be EXTERNAL or INTERNAL.');
      const requested = body['address'];
      if (requested !== undefined && (typeof requested !== 'string' || ipv4ToNumber(requested) === undefined)) throw invalidField('resource.address', requested, 'Must be an IPv4 address.');
      const taken = state.list(collectionPath(state.world.project, scope, 'addresses')).find((other) => other['address'] === requested);
      if (requested !== undefined && taken !== undefined) throw invalidField('resource.address', requested, `The IP address is already reserved by '${taken.name}'.`);
      const built: Record<string, unknown> = { addressType, status: 'RESERVED', labelFingerprint: EMPTY_LABEL_FINGERPRINT, ipVersion: 'IPV4' };
      if (addressType === 'INTERNAL') {
        const subnetwork =
          body['subnetwork'] === undefined
            ? defaultSubnetwork(state, region, body['network'])
            : resolveReference(state, 'resource.subnetwork', body['subnetwork'], ['subnetworks'], regionCollection(state, region, 'subnetworks'));
        const cidr = String(subnetwork.resource['ipCidrRange']);
        if (typeof requested === 'string' && !rangeContains(parseIpv4Range('ipCidrRange', cidr), requested)) throw invalidField('resource.address', requested, `It is not in the subnetwork range ${cidr}.`);
        built['address'] = requested ?? allocateInternalAddress(state, cidr, subnetwork.path);
        built['subnetwork'] = subnetwork.link;
        built['purpose'] = body['purpose'] ?? 'GCE_ENDPOINT';
      } else {
        if (body['subnetwork'] !== undefined) throw invalidField('resource.subnetwork', body['subnetwork'], 'Only INTERNAL addresses have a subnetwork.');
        const tier = body['networkTier'] ?? 'PREMIUM';
        if (tier !== 'PREMIUM' && tier !== 'STANDARD') throw invalidField('resource.networkTier', tier, 'Must be PREMIUM or STANDARD.');
        built['networkTier'] = tier;
        built['address'] = requested ?? allocateExternalAddress(state);
      }
      return built;
    },
    // Releasing an address whose IP a forwarding rule or instance holds is allowed, as in Compute:
    // the holder keeps the IP as an ephemeral one (upstream's load balancers rely on this: they
    // reserve the IP for the sync, create the forwarding rule, then release the reservation).
    afterWrite: (state) => syncAddressUsers(state),
  };
}

function forwardingRuleCustomRoutes(state: ComputeState): ComputeRoute[] {
  const RULES = { scope: 'region', collection: 'forwardingRules', nameParam: 'forwardingRule', fingerprinted: true } as const;
  return [
    {
      id: 'compute.forwardingRules.setTarget',
      httpMethod: 'POST',
      path: 'projects/{project}/regions/{region}/forwardingRules/{forwardingRule}/setTarget',
      handle: (request) => {
        const { project, scope, path, resource } = locateIn(state, RULES, request);
        const body = requireBody(request);
        if (body['target'] === undefined) throw requiredField('target');
        if (resource['target'] === undefined) throw invalidField('target', body['target'], 'The forwarding rule has a backend service, not a target.');
        resource['target'] = resolveReference(state, 'target', body['target'], ['targetPools'], regionCollection(state, regionOf(scope), 'targetPools')).link;
        restore(state, RULES, path, resource);
        return mutationOperation(state, project, scope, 'setTarget', resource);
      },
    },
  ];
}

export function loadBalancerRoutes(state: ComputeState): ComputeRoute[] {
  return [
    ...collectionRoutes(state, httpHealthCheckSpec()),
    ...collectionRoutes(state, healthCheckSpec('global')),
    ...collectionRoutes(state, healthCheckSpec('region')),
    ...collectionRoutes(state, targetPoolSpec()),
    ...targetPoolCustomRoutes(state),
    ...collectionRoutes(state, backendServiceSpec()),
    ...collectionRoutes(state, forwardingRuleSpec()),
    ...forwardingRuleCustomRoutes(state),
    ...collectionRoutes(state, addressSpec()),
  ];
}
