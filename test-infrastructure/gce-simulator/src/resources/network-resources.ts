import { collectionRoutes, type CollectionSpec } from '../collection-routes.js';
import type { ComputeRoute } from '../compute-route.js';
import type { ComputeState, Resource } from '../compute-state.js';
import { GceError, inUse, invalidField, requiredField } from '../gce-error.js';
import { gatewayOf } from '../ip-allocation.js';
import { parseIpv4Range, rangesOverlap } from '../ipv4.js';
import { collectionPath, resourcePath } from '../resource-links.js';
import { pathOfLink, pathsOf, records, resolveReference, strings } from '../references.js';

/** The range Compute gives an auto-mode network's subnetwork in us-central1; other regions get the same here. */
const AUTO_MODE_RANGE = '10.128.0.0/20';

export function globalCollection(state: ComputeState, collection: string): string {
  return collectionPath(state.world.project, { type: 'global' }, collection);
}

export function regionCollection(state: ComputeState, region: string, collection: string): string {
  return collectionPath(state.world.project, { type: 'region', name: region }, collection);
}

function networkSpec(): CollectionSpec {
  return {
    apiResource: 'networks',
    collection: 'networks',
    scope: 'global',
    nameParam: 'network',
    kind: 'compute#network',
    listKind: 'compute#networkList',
    references: () => [],
    build: ({ body, existing }) => {
      const legacyRange = body['IPv4Range'];
      const auto = body['autoCreateSubnetworks'];
      if (legacyRange !== undefined && auto === true) throw invalidField('resource.autoCreateSubnetworks', auto, 'A legacy network (IPv4Range) cannot create subnetworks.');
      const network: Record<string, unknown> = {
        routingConfig: { routingMode: 'REGIONAL', bgpBestPathSelectionMode: 'LEGACY' },
        networkFirewallPolicyEnforcementOrder: 'AFTER_CLASSIC_FIREWALL',
        mtu: typeof body['mtu'] === 'number' ? body['mtu'] : 1460,
        ...(existing?.['subnetworks'] === undefined ? {} : { subnetworks: existing['subnetworks'] }),
      };
      if (legacyRange !== undefined) {
        parseIpv4Range('resource.IPv4Range', legacyRange);
        network['IPv4Range'] = legacyRange;
        network['gatewayIPv4'] = gatewayOf(String(legacyRange));
      } else network['autoCreateSubnetworks'] = auto === true;
      return network;
    },
    afterWrite: (state, path, network, previous) => {
      if (previous !== undefined) return;
      // Compute adds a default route to the internet gateway to every new network.
      const routeName = `default-route-${String(network['id']).slice(-16)}`;
      const routePath = resourcePath(state.world.project, { type: 'global' }, 'routes', routeName);
      state.put(routePath, {
        kind: 'compute#route',
        id: state.newId(),
        creationTimestamp: state.timestamp(),
        name: routeName,
        description: 'Default route to the Internet.',
        network: state.link(path),
        destRange: '0.0.0.0/0',
        priority: 1000,
        nextHopGateway: state.link(`projects/${state.world.project}/global/gateways/default-internet-gateway`),
        routeType: 'STATIC',
        selfLink: state.link(routePath),
      });
      if (network['autoCreateSubnetworks'] === true) {
        const region = state.world.region;
        const subnetPath = resourcePath(state.world.project, { type: 'region', name: region }, 'subnetworks', network.name);
        const subnetwork: Resource = {
          kind: 'compute#subnetwork',
          id: state.newId(),
          creationTimestamp: state.timestamp(),
          name: network.name,
          network: state.link(path),
          ipCidrRange: AUTO_MODE_RANGE,
          gatewayAddress: gatewayOf(AUTO_MODE_RANGE),
          region: state.scopeLink(state.world.project, { type: 'region', name: region }),
          selfLink: state.link(subnetPath),
          privateIpGoogleAccess: false,
          stackType: 'IPV4_ONLY',
          purpose: 'PRIVATE',
        };
        state.put(subnetPath, subnetwork);
        linkSubnetwork(state, subnetPath, subnetwork);
      }
    },
    checkNotInUse: (state, path, network) => {
      // Auto-mode subnetworks and the default route go with the network; anything else blocks it.
      const owned = new Set(systemChildren(state, path, network));
      const user = state.usersOf(path).find((candidate) => !owned.has(candidate));
      if (user !== undefined) throw inUse(path, user);
      for (const child of owned) state.assertNotInUse(child);
    },
    afterDelete: (state, path, network) => {
      for (const child of systemChildren(state, path, network)) state.remove(child);
    },
  };
}

/** The auto-mode subnetworks and the default route Compute made for a network. */
function systemChildren(state: ComputeState, path: string, network: Resource): string[] {
  const children: string[] = [];
  if (network['autoCreateSubnetworks'] === true) {
    for (const subnetLink of strings(network['subnetworks'])) {
      const subnetPath = pathOfLink(state, subnetLink);
      if (subnetPath !== undefined && state.get(subnetPath)?.['network'] === state.link(path)) children.push(subnetPath);
    }
  }
  for (const route of state.list(globalCollection(state, 'routes'))) {
    if (route['network'] === state.link(path) && route['nextHopGateway'] !== undefined && route.name.startsWith('default-route-')) {
      children.push(resourcePath(state.world.project, { type: 'global' }, 'routes', route.name));
    }
  }
  return children;
}

function linkSubnetwork(state: ComputeState, subnetPath: string, subnetwork: Resource): void {
  const networkPath = pathOfLink(state, subnetwork['network']);
  const network = networkPath === undefined ? undefined : state.get(networkPath);
  if (network === undefined) return;
  const links = new Set(strings(network['subnetworks']));
  links.add(state.link(subnetPath));
  network['subnetworks'] = [...links];
}

function unlinkSubnetwork(state: ComputeState, subnetPath: string, subnetwork: Resource): void {
  const networkPath = pathOfLink(state, subnetwork['network']);
  const network = networkPath === undefined ? undefined : state.get(networkPath);
  if (network === undefined) return;
  const remaining = strings(network['subnetworks']).filter((link) => link !== state.link(subnetPath));
  if (remaining.length > 0) network['subnetworks'] = remaining;
  else delete network['subnetworks'];
}

function subnetworkSpec(): CollectionSpec {
  return {
    apiResource: 'subnetworks',
    collection: 'subnetworks',
    scope: 'region',
    nameParam: 'subnetwork',
    kind: 'compute#subnetwork',
    listKind: 'compute#subnetworkList',
    aggregatedListKind: 'compute#subnetworkAggregatedList',
    fingerprinted: true,
    references: (subnetwork) => {
      const link = subnetwork['network'];
      return typeof link === 'string' ? [link.slice(link.indexOf('projects/'))] : [];
    },
    build: ({ state, body, path }) => {
      if (body['network'] === undefined) throw requiredField('resource.network');
      if (body['ipCidrRange'] === undefined) throw requiredField('resource.ipCidrRange');
      const network = resolveReference(state, 'resource.network', body['network'], ['networks'], globalCollection(state, 'networks'));
      if (network.resource['IPv4Range'] !== undefined) throw invalidField('resource.network', body['network'], 'A legacy network cannot have subnetworks.');
      const range = parseIpv4Range('resource.ipCidrRange', body['ipCidrRange']);
      for (const [otherPath, other] of state.entries()) {
        if (otherPath === path || !otherPath.includes('/subnetworks/') || other['network'] !== network.link) continue;
        if (rangesOverlap(range, parseIpv4Range('ipCidrRange', other['ipCidrRange']))) {
          throw invalidField('resource.ipCidrRange', body['ipCidrRange'], `It conflicts with the existing subnetwork '${other.name}'.`);
        }
      }
      const secondary = records(body['secondaryIpRanges']).map((entry, index) => {
        parseIpv4Range(`resource.secondaryIpRanges[${index}].ipCidrRange`, entry['ipCidrRange']);
        if (typeof entry['rangeName'] !== 'string') throw requiredField(`resource.secondaryIpRanges[${index}].rangeName`);
        return { rangeName: entry['rangeName'], ipCidrRange: entry['ipCidrRange'] };
      });
      const stackType = body['stackType'] ?? 'IPV4_ONLY';
      if (stackType !== 'IPV4_ONLY' && stackType !== 'IPV4_IPV6' && stackType !== 'IPV6_ONLY') throw invalidField('resource.stackType', stackType, 'Must be IPV4_ONLY, IPV4_IPV6 or IPV6_ONLY.');
      const subnetwork: Record<string, unknown> = {
        network: network.link,
        ipCidrRange: body['ipCidrRange'],
        gatewayAddress: gatewayOf(String(body['ipCidrRange'])),
        privateIpGoogleAccess: body['privateIpGoogleAccess'] === true,
        stackType,
        purpose: body['purpose'] ?? 'PRIVATE',
        ...(secondary.length > 0 ? { secondaryIpRanges: secondary } : {}),
      };
      if (stackType !== 'IPV4_ONLY') {
        const accessType = body['ipv6AccessType'] ?? 'EXTERNAL';
        subnetwork['ipv6AccessType'] = accessType;
        const third = (range.base >>> 8) & 0xffff;
        const prefix = `2600:1900:4000:${third.toString(16)}`;
        if (accessType === 'EXTERNAL') subnetwork['externalIpv6Prefix'] = `${prefix}::/64`;
        else subnetwork['internalIpv6Prefix'] = `fd20:${third.toString(16)}:0:0::/64`;
        subnetwork['ipv6CidrRange'] = accessType === 'EXTERNAL' ? `${prefix}::/64` : `fd20:${third.toString(16)}:0:0::/64`;
      }
      return subnetwork;
    },
    afterWrite: (state, path, subnetwork) => linkSubnetwork(state, path, subnetwork),
    beforeDelete: (state, path) => {
      const network = state.get(pathOfLink(state, state.require(path)['network']) ?? '');
      if (network?.['autoCreateSubnetworks'] === true) {
        throw new GceError('invalid', `The subnetwork '${path}' belongs to an auto-mode network and is deleted with it.`);
      }
    },
    afterDelete: (state, path, subnetwork) => unlinkSubnetwork(state, path, subnetwork),
  };
}

const FIREWALL_PROTOCOLS = /^(tcp|udp|icmp|esp|ah|sctp|ipip|all|\d{1,3})$/;

function firewallRules(field: string, value: unknown): Record<string, unknown>[] {
  return records(value).map((rule, index) => {
    const protocol = rule['IPProtocol'];
    if (typeof protocol !== 'string' || !FIREWALL_PROTOCOLS.test(protocol)) throw invalidField(`${field}[${index}].IPProtocol`, protocol, 'Must be tcp, udp, icmp, esp, ah, sctp, ipip, all or a protocol number.');
    const ports = strings(rule['ports']);
    for (const port of ports) {
      const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(port);
      const low = Number(match?.[1]);
      const high = match?.[2] === undefined ? low : Number(match[2]);
      if (match === null || low < 0 || high > 65535 || low > high) throw invalidField(`${field}[${index}].ports`, port, 'Must be a port or a port range such as 80 or 8000-9000.');
    }
    if (ports.length > 0 && !['tcp', 'udp', 'sctp'].includes(protocol)) throw invalidField(`${field}[${index}].ports`, ports, 'Ports apply only to tcp, udp and sctp.');
    return { IPProtocol: protocol, ...(ports.length > 0 ? { ports } : {}) };
  });
}

function firewallSpec(): CollectionSpec {
  return {
    apiResource: 'firewalls',
    collection: 'firewalls',
    scope: 'global',
    nameParam: 'firewall',
    kind: 'compute#firewall',
    listKind: 'compute#firewallList',
    update: true,
    patch: true,
    references: (firewall) => pathsOfAny(firewall['network']),
    build: ({ state, body }) => {
      const network = resolveReference(state, 'resource.network', body['network'] ?? `global/networks/${state.world.network}`, ['networks'], globalCollection(state, 'networks'));
      const allowed = firewallRules('resource.allowed', body['allowed']);
      const denied = firewallRules('resource.denied', body['denied']);
      if ((allowed.length > 0) === (denied.length > 0)) throw new GceError('invalid', "Invalid value for field 'resource': exactly one of 'allowed' or 'denied' must be specified.");
      const direction = body['direction'] ?? 'INGRESS';
      if (direction !== 'INGRESS' && direction !== 'EGRESS') throw invalidField('resource.direction', direction, 'Must be INGRESS or EGRESS.');
      const priority = body['priority'] ?? 1000;
      if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 65535) throw invalidField('resource.priority', priority, 'Must be an integer in [0, 65535].');
      const sourceRanges = strings(body['sourceRanges']);
      const sourceTags = strings(body['sourceTags']);
      const destinationRanges = strings(body['destinationRanges']);
      sourceRanges.forEach((range, index) => checkCidrOrAddress(`resource.sourceRanges[${index}]`, range));
      destinationRanges.forEach((range, index) => checkCidrOrAddress(`resource.destinationRanges[${index}]`, range));
      const targetTags = strings(body['targetTags']);
      return {
        network: network.link,
        priority,
        direction,
        ...(allowed.length > 0 ? { allowed } : { denied }),
        ...(sourceRanges.length > 0 ? { sourceRanges } : direction === 'INGRESS' && sourceTags.length === 0 ? { sourceRanges: ['0.0.0.0/0'] } : {}),
        ...(sourceTags.length > 0 ? { sourceTags } : {}),
        ...(destinationRanges.length > 0 ? { destinationRanges } : direction === 'EGRESS' ? { destinationRanges: ['0.0.0.0/0'] } : {}),
        ...(targetTags.length > 0 ? { targetTags } : {}),
        disabled: body['disabled'] === true,
        logConfig: { enable: records([body['logConfig']])[0]?.['enable'] === true },
      };
    },
  };
}

function checkCidrOrAddress(field: string, text: string): void {
  if (text.includes(':')) return; // IPv6 ranges are accepted as written
  parseIpv4Range(field, text.includes('/') ? text : `${text}/32`);
}

/** The relative paths of full links (`.../projects/...`). */
export function pathsOfAny(...values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value.includes('projects/')).map((value) => value.slice(value.indexOf('projects/')));
}

function routeSpec(): CollectionSpec {
  return {
    apiResource: 'routes',
    collection: 'routes',
    scope: 'global',
    nameParam: 'route',
    kind: 'compute#route',
    listKind: 'compute#routeList',
    references: (route) => pathsOfAny(route['network']),
    build: ({ state, body }) => {
      if (body['network'] === undefined) throw requiredField('resource.network');
      if (body['destRange'] === undefined) throw requiredField('resource.destRange');
      const network = resolveReference(state, 'resource.network', body['network'], ['networks'], globalCollection(state, 'networks'));
      const destRange = String(body['destRange']);
      if (!destRange.includes(':')) parseIpv4Range('resource.destRange', destRange);
      const hops = ['nextHopInstance', 'nextHopIp', 'nextHopGateway', 'nextHopIlb', 'nextHopVpnTunnel'].filter((field) => body[field] !== undefined);
      if (hops.length !== 1) throw new GceError('invalid', "Invalid value for field 'resource': exactly one next hop (nextHopInstance, nextHopIp, nextHopGateway, nextHopIlb or nextHopVpnTunnel) must be specified.");
      const route: Record<string, unknown> = {
        network: network.link,
        destRange,
        priority: body['priority'] ?? 1000,
        routeType: 'STATIC',
        ...(strings(body['tags']).length > 0 ? { tags: strings(body['tags']) } : {}),
      };
      if (body['nextHopInstance'] !== undefined) {
        const instance = resolveReference(state, 'resource.nextHopInstance', body['nextHopInstance'], ['instances']);
        const onNetwork = records(instance.resource['networkInterfaces']).some((nic) => nic['network'] === network.link);
        if (!onNetwork) throw invalidField('resource.nextHopInstance', body['nextHopInstance'], `The instance is not on network '${network.path}'.`);
        route['nextHopInstance'] = instance.link;
      } else if (body['nextHopGateway'] !== undefined) {
        const gateway = String(body['nextHopGateway']);
        if (!gateway.endsWith('/gateways/default-internet-gateway')) throw invalidField('resource.nextHopGateway', gateway, 'Only the default-internet-gateway exists.');
        route['nextHopGateway'] = state.link(`projects/${state.world.project}/global/gateways/default-internet-gateway`);
      } else if (body['nextHopIp'] !== undefined) route['nextHopIp'] = body['nextHopIp'];
      else throw invalidField(`resource.${hops[0] ?? 'nextHop'}`, body[hops[0] ?? ''], 'This next hop type is not simulated.');
      return route;
    },
  };
}

export function networkRoutes(state: ComputeState): ComputeRoute[] {
  return [networkSpec(), subnetworkSpec(), firewallSpec(), routeSpec()].flatMap((spec) => collectionRoutes(state, spec));
}

