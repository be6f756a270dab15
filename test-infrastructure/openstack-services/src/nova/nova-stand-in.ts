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
import { DEFAULT_FLAVORS, flavorDetailView, flavorSummaryView, type FlavorRecord } from './nova-flavors.js';
import { Links } from './nova-links.js';
import { microversionHeaders, requestedMicroversion, type Microversion } from './nova-microversion.js';
import { readServerNetworking, type ServerNetworking } from './nova-server-networking.js';
import { versionDocument, versionsDocument } from './nova-versions.js';
import { findRoute, type RouteMatch } from './nova-routes.js';
import type { ServerRecord } from './nova-server-record.js';
import { parseServerCreateRequest, type NetworkChoice, type NetworkRequest } from './nova-server-create-request.js';
import { page, queryServers } from './nova-server-query.js';
import { serverDetailView, serverSummaryView } from './nova-server-view.js';

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

  const addressesOf = (records: readonly ServerRecord[]): Promise<Map<string, ServerNetworking>> => readServerNetworking(neutron, records);

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
    const known = needsAddresses ? await addressesOf(all) : new Map<string, ServerNetworking>();
    const result = queryServers(all, context.query, context.token, (server) => Object.values(known.get(server.id)?.addresses ?? {}).flatMap((entries) => entries.map((entry) => entry.addr)));
    const body: Record<string, unknown> = {
      servers: detailed ? await detail(result.servers, context) : result.servers.map((record) => serverSummaryView(record, links)),
    };
    if (result.nextMarker !== undefined) body['servers_links'] = [links.next(detailed ? 'servers/detail' : 'servers', context.query, result.limit, result.nextMarker)];
    return { status: 200, body };
  };

  const createServerFromRequest = async (context: RequestContext): Promise<Answer> => {
    const request = parseServerCreateRequest(context.body, context.version, flavors, defaultZone);
    const id = randomUUID();
    const now = new Date();
    instanceCounter += 1;
    const record: ServerRecord = {
      id,
      name: request.name,
      projectId: context.token.projectId,
      userId: context.token.userId,
      flavorId: request.flavor.id,
      imageId: request.imageId,
      availabilityZone: request.availabilityZone,
      host: computeHost,
      vmState: 'active',
      created: now,
      updated: now,
      launchedAt: now,
      metadata: request.metadata,
      description: request.description,
      keyName: request.keyName,
      securityGroups: request.securityGroups,
      accessIPv4: request.accessIPv4,
      accessIPv6: request.accessIPv6,
      tags: [],
      reservationId: `r-${randomBytes(4).toString('hex')}`,
      instanceName: `instance-${instanceCounter.toString(16).padStart(8, '0')}`,
      userData: request.userData,
      createdPortIds: [],
      portIds: [],
    };
    await attachNetworks(record, request.networks, context.token);
    servers.set(id, record);
    const self = links.resource('servers', id);
    return {
      status: 202,
      headers: { Location: self[0]!.href },
      body: { server: { id, links: self, 'OS-DCF:diskConfig': 'MANUAL', adminPass: randomBytes(9).toString('base64url'), security_groups: request.securityGroups.map((group) => ({ name: group })) } },
    };
  };

  /** A port per listed network (created) or port (attached); `auto`: the project's only network. */
  const attachNetworks = async (record: ServerRecord, choice: NetworkChoice, token: ValidatedToken): Promise<void> => {
    if (choice.kind === 'none') return;
    let requested: NetworkRequest[];
    if (choice.kind === 'auto') {
      // Nova picks the only network the project may use, and refuses to guess among several.
      const candidates = await neutron.networksForProject(record.projectId);
      if (candidates.length > 1) throw new NovaFault(409, 'Multiple possible networks found, use a Network ID to be more specific.');
      requested = candidates.map((network) => ({ network: network.id }));
    } else {
      requested = choice.networks;
    }
    try {
      for (const entry of requested) {
        const binding = { device_id: record.id, device_owner: `compute:${record.availabilityZone}`, 'binding:host_id': record.host };
        if ('port' in entry) {
          const port = await neutron.port(entry.port);
          if (port === undefined || (!token.admin && (port.project_id ?? port.tenant_id) !== record.projectId)) throw new NovaFault(400, `Port ${entry.port} could not be found.`);
          if (port.device_id !== '') throw new NovaFault(409, `Port ${entry.port} is still in use.`);
          await neutron.updatePort(port.id, binding);
          record.portIds.push(port.id);
        } else {
          const network = await neutron.network(entry.network);
          if (network === undefined || (!token.admin && network.shared !== true && (network.project_id ?? network.tenant_id) !== record.projectId)) {
            throw new NovaFault(400, `Network ${entry.network} could not be found.`);
          }
          const port = await neutron.createPort({
            network_id: network.id,
            project_id: record.projectId,
            ...binding,
            ...(entry.fixedIp === undefined ? {} : { fixed_ips: [{ ip_address: entry.fixedIp }] }),
          });
          record.createdPortIds.push(port.id);
          record.portIds.push(port.id);
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
    'servers.create': createServerFromRequest,
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
    'flavors.get': (context) => ({ status: 200, body: { flavor: flavorDetailView(flavorOf(context.match.ids[0]!), links) } }),
    // The `openstack` CLI reads them for `flavor show`/`flavor list`.
    'flavors.extraSpecs': (context) => ({ status: 200, body: { extra_specs: { ...flavorOf(context.match.ids[0]!).extraSpecs } } }),
  };

  const flavorOf = (id: string): FlavorRecord => {
    const flavor = flavors.find((candidate) => candidate.id === id);
    if (flavor === undefined) throw new NovaFault(404, `Flavor ${id} could not be found.`);
    return flavor;
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

  const handle = async (incoming: IncomingMessage): Promise<Answer> => {
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const path = url.pathname.replace(/\/{2,}/g, '/');
    const lookup = findRoute(incoming.method ?? 'GET', path);
    if (lookup.found === undefined) {
      return lookup.pathKnown ? { status: 405, body: novaFaultBody(405, 'The method specified is not allowed for this resource.') } : { status: 404, body: novaFaultBody(404, 'The resource could not be found.') };
    }
    const match = lookup.found;
    // The version documents need no token, as Nova's.
    if (match.route.name === 'versions') return { status: 300, body: versionsDocument(links) };
    if (match.route.name === 'version') return { status: 200, body: { version: versionDocument(links) } };

    const subjectToken = incoming.headers['x-auth-token'];
    let token: ValidatedToken | undefined;
    try {
      token = typeof subjectToken === 'string' && subjectToken !== '' ? await tokens.validate(subjectToken) : undefined;
    } catch (error) {
      // As keystonemiddleware: Keystone unreachable is the service unavailable, not a bad token.
      throw new NovaFault(503, `The server is currently unavailable: Keystone did not validate the token (${(error as Error).message})`);
    }
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




function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}
