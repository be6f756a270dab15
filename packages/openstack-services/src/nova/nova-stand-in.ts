/**
 * The Nova stand-in: an HTTP server speaking the compute API (`/v2.1`) for what a cloud
 * controller manager and the `openstack` CLI use, with the real Keystone and Neutron behind it.
 * Every request under `/v2.1/` needs a token Keystone accepts (validated each time); servers are
 * kept in memory, their ports are real Neutron ports (device_id = server ID, device_owner
 * `compute:<zone>`, bound on the compute host), so addresses and interfaces come from Neutron.
 * Creating a server makes it ACTIVE at once; os-stop/os-start switch it SHUTOFF/ACTIVE.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminCredentials } from '../keystone-catalog.js';
import { KeystoneTokenValidator, type ValidatedToken } from './keystone-token-validator.js';
import { NeutronForNova, NeutronRefused, type NeutronPort } from './neutron-for-nova.js';
import { NovaFault, novaFaultBody } from './nova-fault.js';
import { DEFAULT_FLAVORS, flavorDetailView, flavorIdOfReference, flavorSummaryView, type FlavorRecord } from './nova-flavors.js';
import { Links } from './nova-links.js';
import { atLeast, formatMicroversion, microversionHeaders, NOVA_MAXIMUM_MICROVERSION, NOVA_MINIMUM_MICROVERSION, requestedMicroversion, type Microversion } from './nova-microversion.js';
import { findRoute, type RouteMatch } from './nova-routes.js';
import type { ServerRecord } from './nova-server-record.js';
import { page, queryServers } from './nova-server-query.js';
import { serverDetailView, serverSummaryView, type ServerAddress } from './nova-server-view.js';

export interface NovaStandInOptions {
  /** Keystone (v3 URL) and the admin the stand-in validates tokens and calls Neutron as. */
  keystone: AdminCredentials;
  neutronUrl: string;
  /** Default 0 (any free port) on 127.0.0.1. */
  port?: number;
  /** Default the m1.* set. */
  flavors?: readonly FlavorRecord[];
  /** Where servers run; default `host-ovs-no_filter` (where Neutron's test driver binds ports). */
  computeHost?: string;
  /** Default `nova`. */
  defaultAvailabilityZone?: string;
}

export interface NovaStandIn {
  /** The versioned endpoint registered in the catalog: `http://127.0.0.1:PORT/v2.1`. */
  url: string;
  close(): Promise<void>;
}

interface RequestContext {
  match: RouteMatch;
  token: ValidatedToken;
  version: Microversion;
  query: URLSearchParams;
  body: unknown;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const SERVER_CREATE_KEYS = new Set([
  'name', 'imageRef', 'flavorRef', 'networks', 'availability_zone', 'metadata', 'security_groups', 'key_name', 'user_data',
  'accessIPv4', 'accessIPv6', 'OS-DCF:diskConfig', 'min_count', 'max_count', 'return_reservation_id', 'config_drive', 'personality', 'adminPass', 'description',
]);

export async function startNovaStandIn(options: NovaStandInOptions): Promise<NovaStandIn> {
  const tokens = new KeystoneTokenValidator(options.keystone);
  const neutron = new NeutronForNova(options.neutronUrl, tokens);
  const flavors = [...(options.flavors ?? DEFAULT_FLAVORS)];
  const computeHost = options.computeHost ?? 'host-ovs-no_filter';
  const defaultZone = options.defaultAvailabilityZone ?? 'nova';
  const servers = new Map<string, ServerRecord>();
  let instanceCounter = 0;
  let links = new Links('http://127.0.0.1/v2.1');

  const visibleServer = (id: string, token: ValidatedToken): ServerRecord => {
    const server = servers.get(id);
    if (server === undefined || (!token.admin && server.projectId !== token.projectId)) throw new NovaFault(404, `Instance ${id} could not be found.`);
    return server;
  };

  /** Network name -> addresses of each server, from its Neutron ports and their floating IPs. */
  const addressesOf = async (records: readonly ServerRecord[]): Promise<Map<string, { addresses: Record<string, ServerAddress[]>; ports: NeutronPort[] }>> => {
    const ports = await neutron.portsOfDevices(records.map((record) => record.id));
    const networkNames = new Map((await neutron.networks([...new Set(ports.map((port) => port.network_id))])).map((network) => [network.id, network.name]));
    const floating = await neutron.floatingIpsOfPorts(ports.map((port) => port.id));
    const result = new Map<string, { addresses: Record<string, ServerAddress[]>; ports: NeutronPort[] }>();
    for (const record of records) {
      const own = ports.filter((port) => port.device_id === record.id);
      // Ports attached at create first, in their order, as Nova's network info cache keeps them.
      own.sort((left, right) => indexOr(record.portIds, left.id) - indexOr(record.portIds, right.id));
      const addresses: Record<string, ServerAddress[]> = {};
      for (const port of own) {
        const name = networkNames.get(port.network_id) || port.network_id;
        const list = (addresses[name] ??= []);
        for (const fixed of port.fixed_ips) {
          list.push({ version: fixed.ip_address.includes(':') ? 6 : 4, addr: fixed.ip_address, 'OS-EXT-IPS:type': 'fixed', 'OS-EXT-IPS-MAC:mac_addr': port.mac_address });
        }
        for (const address of floating.filter((candidate) => candidate.port_id === port.id)) {
          list.push({ version: address.floating_ip_address.includes(':') ? 6 : 4, addr: address.floating_ip_address, 'OS-EXT-IPS:type': 'floating', 'OS-EXT-IPS-MAC:mac_addr': port.mac_address });
        }
      }
      result.set(record.id, { addresses, ports: own });
    }
    return result;
  };

  const detail = async (records: readonly ServerRecord[], context: RequestContext): Promise<Record<string, unknown>[]> => {
    const addresses = await addressesOf(records);
    return records.map((record) =>
      serverDetailView(record, {
        version: context.version,
        links,
        admin: context.token.admin,
        addresses: addresses.get(record.id)?.addresses ?? {},
        flavor: flavors.find((candidate) => candidate.id === record.flavorId),
      }),
    );
  };

  const listServers = async (context: RequestContext, detailed: boolean): Promise<Answer> => {
    const all = [...servers.values()];
    // The ip/ip6 filters need the addresses of every candidate.
    const needsAddresses = context.query.has('ip') || context.query.has('ip6');
    const known = needsAddresses ? await addressesOf(all) : new Map<string, { addresses: Record<string, ServerAddress[]> }>();
    const result = queryServers(all, context.query, context.token, (server) => Object.values(known.get(server.id)?.addresses ?? {}).flatMap((entries) => entries.map((entry) => entry.addr)));
    const body: Record<string, unknown> = {
      servers: detailed ? await detail(result.servers, context) : result.servers.map((record) => serverSummaryView(record, links)),
    };
    if (result.nextMarker !== undefined) body['servers_links'] = [links.next(detailed ? 'servers/detail' : 'servers', context.query, result.limit, result.nextMarker)];
    return { status: 200, body };
  };

  const createServer_ = async (context: RequestContext): Promise<Answer> => {
    const request = objectField(context.body, 'server', 'Invalid input for field/attribute server.');
    for (const key of Object.keys(request)) {
      if (!SERVER_CREATE_KEYS.has(key) || (key === 'description' && !atLeast(context.version, '2.19'))) {
        throw new NovaFault(400, `Invalid input for field/attribute server. Value: ${JSON.stringify(request)}. Additional properties are not allowed ('${key}' was unexpected)`);
      }
    }
    const name = request['name'];
    if (typeof name !== 'string' || name.trim() === '' || name.length > 255) throw new NovaFault(400, "Invalid input for field/attribute name. Value: " + String(name) + '. It must be a non-empty string of at most 255 characters');
    const flavorRef = request['flavorRef'];
    if (typeof flavorRef !== 'string' && typeof flavorRef !== 'number') throw new NovaFault(400, "Invalid input for field/attribute server. 'flavorRef' is a required property");
    const flavor = flavors.find((candidate) => candidate.id === flavorIdOfReference(String(flavorRef)));
    if (flavor === undefined) throw new NovaFault(400, `Flavor ${flavorIdOfReference(String(flavorRef))} could not be found.`);
    const imageRef = request['imageRef'];
    if (typeof imageRef !== 'string' || imageRef === '') throw new NovaFault(400, 'Block Device Mapping is Invalid: Boot sequence for the instance and image/block device mapping combination is not valid.');
    for (const count of ['min_count', 'max_count']) {
      if (request[count] !== undefined && Number(request[count]) !== 1) throw new NovaFault(400, `The Nova stand-in creates one server per request (${count} ${String(request[count])})`);
    }
    const metadata = request['metadata'] ?? {};
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((value) => typeof value !== 'string')) {
      throw new NovaFault(400, 'Invalid input for field/attribute metadata. Value: ' + JSON.stringify(metadata) + '. Metadata values must be strings');
    }
    const zone = typeof request['availability_zone'] === 'string' && request['availability_zone'] !== '' ? request['availability_zone'] : defaultZone;
    const groups = request['security_groups'];
    const securityGroups = Array.isArray(groups) ? groups.map((group) => String((group as { name?: unknown }).name ?? '')).filter((group) => group !== '') : ['default'];
    const id = randomUUID();
    const now = new Date();
    instanceCounter += 1;
    const record: ServerRecord = {
      id,
      name,
      projectId: context.token.projectId,
      userId: context.token.userId,
      flavorId: flavor.id,
      imageId: imageRef.includes('/') ? imageRef.slice(imageRef.lastIndexOf('/') + 1) : imageRef,
      availabilityZone: zone,
      host: computeHost,
      vmState: 'active',
      created: now,
      updated: now,
      launchedAt: now,
      metadata: { ...(metadata as Record<string, string>) },
      description: typeof request['description'] === 'string' ? request['description'] : null,
      keyName: typeof request['key_name'] === 'string' ? request['key_name'] : null,
      securityGroups,
      accessIPv4: typeof request['accessIPv4'] === 'string' ? request['accessIPv4'] : '',
      accessIPv6: typeof request['accessIPv6'] === 'string' ? request['accessIPv6'] : '',
      tags: [],
      reservationId: `r-${randomBytes(4).toString('hex')}`,
      instanceName: `instance-${instanceCounter.toString(16).padStart(8, '0')}`,
      userData: typeof request['user_data'] === 'string' ? request['user_data'] : null,
      createdPortIds: [],
      portIds: [],
    };
    await attachNetworks(record, request['networks'], context);
    servers.set(id, record);
    const self = links.resource('servers', id);
    return {
      status: 202,
      headers: { Location: self[0]!.href },
      body: { server: { id, links: self, 'OS-DCF:diskConfig': 'MANUAL', adminPass: randomBytes(9).toString('base64url'), security_groups: securityGroups.map((group) => ({ name: group })) } },
    };
  };

  /** The create request's `networks`: a port per `{uuid}` (created) or `{port}` (attached). */
  const attachNetworks = async (record: ServerRecord, networks: unknown, context: RequestContext): Promise<void> => {
    let requested: { uuid?: string; port?: string; fixed_ip?: string }[];
    if (networks === 'none' && atLeast(context.version, '2.37')) return;
    if (networks === 'auto' && atLeast(context.version, '2.37')) networks = undefined;
    else if (networks === undefined && atLeast(context.version, '2.37')) throw new NovaFault(400, "Invalid input for field/attribute server. 'networks' is a required property");
    if (networks === undefined) {
      // Nova picks the only network the project may use, and refuses to guess among several.
      const candidates = await neutron.networksForProject(record.projectId);
      if (candidates.length > 1) throw new NovaFault(409, 'Multiple possible networks found, use a Network ID to be more specific.');
      requested = candidates.map((network) => ({ uuid: network.id }));
    } else if (Array.isArray(networks)) {
      requested = networks as { uuid?: string; port?: string; fixed_ip?: string }[];
    } else {
      throw new NovaFault(400, `Invalid input for field/attribute networks. Value: ${JSON.stringify(networks)}.`);
    }
    try {
      for (const entry of requested) {
        const binding = { device_id: record.id, device_owner: `compute:${record.availabilityZone}`, 'binding:host_id': record.host };
        if (typeof entry.port === 'string' && entry.port !== '') {
          const port = await neutron.port(entry.port);
          if (port === undefined || (!context.token.admin && (port.project_id ?? port.tenant_id) !== record.projectId)) throw new NovaFault(400, `Port ${entry.port} could not be found.`);
          if (port.device_id !== '') throw new NovaFault(409, `Port ${entry.port} is still in use.`);
          await neutron.updatePort(port.id, binding);
          record.portIds.push(port.id);
        } else if (typeof entry.uuid === 'string' && entry.uuid !== '') {
          const network = await neutron.network(entry.uuid);
          if (network === undefined || (!context.token.admin && network.shared !== true && (network.project_id ?? network.tenant_id) !== record.projectId)) {
            throw new NovaFault(400, `Network ${entry.uuid} could not be found.`);
          }
          const port = await neutron.createPort({
            network_id: network.id,
            project_id: record.projectId,
            ...binding,
            ...(typeof entry.fixed_ip === 'string' ? { fixed_ips: [{ ip_address: entry.fixed_ip }] } : {}),
          });
          record.createdPortIds.push(port.id);
          record.portIds.push(port.id);
        } else {
          throw new NovaFault(400, `Invalid input for field/attribute networks. Value: ${JSON.stringify(entry)}. A network needs "uuid" or "port"`);
        }
      }
    } catch (error) {
      // Nothing half-made stays behind: a failed create releases what it took.
      await releasePorts(record);
      if (error instanceof NeutronRefused) throw new NovaFault(error.status === 409 ? 409 : 400, error.message);
      throw error;
    }
  };

  const releasePorts = async (record: ServerRecord): Promise<void> => {
    for (const portId of record.portIds) {
      if (record.createdPortIds.includes(portId)) await neutron.deletePort(portId);
      else await neutron.updatePort(portId, { device_id: '', device_owner: '', 'binding:host_id': '' }).catch(() => undefined);
    }
  };

  const action = (context: RequestContext): Answer => {
    const server = visibleServer(context.match.ids[0]!, context.token);
    const body = context.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length !== 1) throw new NovaFault(400, 'Malformed request body');
    const name = Object.keys(body)[0]!;
    if (name === 'os-stop' || name === 'os-start') {
      const wanted = name === 'os-stop' ? 'stopped' : 'active';
      const from = name === 'os-stop' ? 'active' : 'stopped';
      if (server.vmState !== from) throw new NovaFault(409, `Cannot '${name === 'os-stop' ? 'stop' : 'start'}' instance ${server.id} while it is in vm_state ${server.vmState}`);
      server.vmState = wanted;
      server.updated = new Date();
      return { status: 202 };
    }
    throw new NovaFault(501, `The Nova stand-in does not implement the server action "${name}" (it serves os-stop and os-start)`);
  };

  const interfaceView = (port: NeutronPort): Record<string, unknown> => ({
    port_state: port.status,
    fixed_ips: port.fixed_ips.map((fixed) => ({ subnet_id: fixed.subnet_id, ip_address: fixed.ip_address })),
    port_id: port.id,
    net_id: port.network_id,
    mac_addr: port.mac_address,
  });

  const handlers: Record<string, (context: RequestContext) => Promise<Answer> | Answer> = {
    'servers.list': (context) => listServers(context, false),
    'servers.detail': (context) => listServers(context, true),
    'servers.create': createServer_,
    'servers.get': async (context) => {
      const server = visibleServer(context.match.ids[0]!, context.token);
      return { status: 200, body: { server: (await detail([server], context))[0] } };
    },
    'servers.delete': async (context) => {
      const server = visibleServer(context.match.ids[0]!, context.token);
      await releasePorts(server);
      servers.delete(server.id);
      return { status: 204 };
    },
    'servers.action': action,
    'interfaces.list': async (context) => {
      const server = visibleServer(context.match.ids[0]!, context.token);
      const ports = (await addressesOf([server])).get(server.id)?.ports ?? [];
      return { status: 200, body: { interfaceAttachments: ports.map(interfaceView) } };
    },
    'interfaces.get': async (context) => {
      const server = visibleServer(context.match.ids[0]!, context.token);
      const portId = context.match.ids[1]!;
      const port = ((await addressesOf([server])).get(server.id)?.ports ?? []).find((candidate) => candidate.id === portId);
      if (port === undefined) throw new NovaFault(404, `Port ${portId} is not attached`);
      return { status: 200, body: { interfaceAttachment: interfaceView(port) } };
    },
    'flavors.list': (context) => flavorList(context, false),
    'flavors.detail': (context) => flavorList(context, true),
    'flavors.get': (context) => {
      const flavor = flavors.find((candidate) => candidate.id === context.match.ids[0]);
      if (flavor === undefined) throw new NovaFault(404, `Flavor ${context.match.ids[0]!} could not be found.`);
      return { status: 200, body: { flavor: flavorDetailView(flavor, links) } };
    },
  };

  const flavorList = (context: RequestContext, detailed: boolean): Answer => {
    for (const key of context.query.keys()) {
      if (!['limit', 'marker', 'is_public', 'minRam', 'minDisk'].includes(key)) throw new NovaFault(400, `The Nova stand-in does not implement the flavors filter or parameter "${key}"`);
    }
    const minRam = Number(context.query.get('minRam') ?? 0);
    const minDisk = Number(context.query.get('minDisk') ?? 0);
    const sorted = flavors.filter((flavor) => flavor.ram >= minRam && flavor.disk >= minDisk).sort((left, right) => left.id.localeCompare(right.id, 'en', { numeric: true }));
    const result = page(sorted, context.query, (flavor) => flavor.id);
    const body: Record<string, unknown> = { flavors: result.items.map((flavor) => (detailed ? flavorDetailView(flavor, links) : flavorSummaryView(flavor, links))) };
    if (result.nextMarker !== undefined) body['flavors_links'] = [links.next(detailed ? 'flavors/detail' : 'flavors', context.query, result.limit, result.nextMarker)];
    return { status: 200, body };
  };

  const versionDocument = (): Record<string, unknown> => ({
    id: 'v2.1',
    status: 'CURRENT',
    version: formatMicroversion(NOVA_MAXIMUM_MICROVERSION),
    min_version: formatMicroversion(NOVA_MINIMUM_MICROVERSION),
    updated: '2013-07-23T11:33:21Z',
    links: [
      { href: `${links.versioned}/`, rel: 'self' },
      { href: 'http://docs.openstack.org/', rel: 'describedby', type: 'text/html' },
    ],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.compute+json;version=2.1' }],
  });

  const handle = async (incoming: IncomingMessage): Promise<Answer> => {
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const path = url.pathname.replace(/\/{2,}/g, '/');
    const lookup = findRoute(incoming.method ?? 'GET', path);
    if (lookup.found === undefined) {
      return lookup.pathKnown ? { status: 405, body: novaFaultBody(405, 'The method specified is not allowed for this resource.') } : { status: 404, body: novaFaultBody(404, 'The resource could not be found.') };
    }
    const match = lookup.found;
    if (match.route.name === 'versions') {
      return {
        status: 300,
        body: {
          versions: [
            { id: 'v2.0', status: 'SUPPORTED', version: '', min_version: '', updated: '2011-01-21T11:33:21Z', links: [{ href: `${links.bookmarkBase}/v2/`, rel: 'self' }] },
            { ...versionDocument(), links: [{ href: `${links.versioned}/`, rel: 'self' }], 'media-types': undefined },
          ].map(withoutUndefined),
        },
      };
    }
    if (match.route.name === 'version') return { status: 200, body: { version: versionDocument() } };

    const subjectToken = incoming.headers['x-auth-token'];
    const token = typeof subjectToken === 'string' && subjectToken !== '' ? await tokens.validate(subjectToken) : undefined;
    if (token === undefined) {
      return {
        status: 401,
        headers: { 'WWW-Authenticate': `Keystone uri="${options.keystone.authUrl.replace(/\/v3$/, '')}"` },
        body: { error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } },
      };
    }
    const negotiated = requestedMicroversion(incoming.headers);
    if (!negotiated.ok) return { status: negotiated.status, body: novaFaultBody(negotiated.status, negotiated.message) };
    const version = negotiated.version;
    let body: unknown;
    if (match.route.method === 'POST') {
      const text = await readBody(incoming);
      try {
        body = JSON.parse(text);
      } catch {
        throw new NovaFault(400, 'Malformed request body');
      }
    }
    const answer = await handlers[match.route.name]!({ match, token, version, query: url.searchParams, body });
    return { ...answer, headers: { ...microversionHeaders(version), ...answer.headers } };
  };

  const server: Server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const requestId = `req-${randomUUID()}`;
    const send = (answer: Answer): void => {
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      outgoing.writeHead(answer.status, {
        ...(text === '' ? {} : { 'Content-Type': 'application/json' }),
        'Content-Length': String(Buffer.byteLength(text)),
        'x-openstack-request-id': requestId,
        'x-compute-request-id': requestId,
        ...answer.headers,
      });
      outgoing.end(text);
    };
    handle(incoming).then(send, (error: unknown) => {
      if (error instanceof NovaFault) {
        // A versioned fault still names the microversion when the request had a valid one.
        const negotiated = requestedMicroversion(incoming.headers);
        send({ status: error.status, body: novaFaultBody(error.status, error.message), ...(negotiated.ok ? { headers: microversionHeaders(negotiated.version) } : {}) });
        return;
      }
      send({ status: 500, body: novaFaultBody(500, `Unexpected API Error. ${(error as Error).message ?? String(error)}`) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  links = new Links(`http://127.0.0.1:${port}/v2.1`);
  return {
    url: links.versioned,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function indexOr(list: readonly string[], id: string): number {
  const index = list.indexOf(id);
  return index < 0 ? list.length : index;
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

function objectField(body: unknown, key: string, message: string): Record<string, unknown> {
  const value = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new NovaFault(400, message);
  return value as Record<string, unknown>;
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}
