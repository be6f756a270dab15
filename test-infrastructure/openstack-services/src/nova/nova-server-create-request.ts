/**
 * `POST /servers` request validation (pure): the body Nova's 2.1-2.47 schema accepts, turned
 * into what the stand-in needs, or a 400 (409 never: choosing among networks needs Neutron).
 * Refused besides what Nova refuses: boot from volume (no `imageRef`), more than one server.
 */
import { NovaFault } from './nova-fault.js';
import { flavorIdOfReference, type FlavorRecord } from './nova-flavors.js';
import { atLeast, type Microversion } from './nova-microversion.js';

const SERVER_CREATE_KEYS = new Set([
  'name', 'imageRef', 'flavorRef', 'networks', 'availability_zone', 'metadata', 'security_groups', 'key_name', 'user_data',
  'accessIPv4', 'accessIPv6', 'OS-DCF:diskConfig', 'min_count', 'max_count', 'return_reservation_id', 'config_drive', 'personality', 'adminPass', 'description',
]);

/** A network of the request: an existing port to attach, or a network to make a port on. */
export type NetworkRequest = { port: string } | { network: string; fixedIp?: string };

/** `auto`: the project's only network (networks omitted before 2.37, or "auto"). */
export type NetworkChoice = { kind: 'none' } | { kind: 'auto' } | { kind: 'listed'; networks: NetworkRequest[] };

export interface ServerCreateRequest {
  name: string;
  flavor: FlavorRecord;
  imageId: string;
  availabilityZone: string;
  metadata: Record<string, string>;
  description: string | null;
  keyName: string | null;
  securityGroups: string[];
  accessIPv4: string;
  accessIPv6: string;
  userData: string | null;
  networks: NetworkChoice;
}

function optionalString(request: Record<string, unknown>, key: string): string | undefined {
  const value = request[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new NovaFault(400, `Invalid input for field/attribute ${key}. Value: ${JSON.stringify(value)}. ${JSON.stringify(value)} is not of type 'string'`);
  return value;
}

function lastSegment(reference: string): string {
  return reference.includes('/') ? reference.slice(reference.lastIndexOf('/') + 1) : reference;
}

export function parseServerCreateRequest(body: unknown, version: Microversion, flavors: readonly FlavorRecord[], defaultZone: string): ServerCreateRequest {
  const request = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)['server'] : undefined;
  if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new NovaFault(400, "Invalid input for field/attribute server. 'server' is a required property");
  const server = request as Record<string, unknown>;
  for (const key of Object.keys(server)) {
    if (!SERVER_CREATE_KEYS.has(key) || (key === 'description' && !atLeast(version, '2.19'))) {
      throw new NovaFault(400, `Invalid input for field/attribute server. Additional properties are not allowed ('${key}' was unexpected)`);
    }
  }
  const name = server['name'];
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255) throw new NovaFault(400, `Invalid input for field/attribute name. Value: ${JSON.stringify(name)}. It must be a non-empty string of at most 255 characters`);
  const flavorRef = server['flavorRef'];
  if (typeof flavorRef !== 'string' && typeof flavorRef !== 'number') throw new NovaFault(400, "Invalid input for field/attribute server. 'flavorRef' is a required property");
  const flavorId = flavorIdOfReference(String(flavorRef));
  const flavor = flavors.find((candidate) => candidate.id === flavorId);
  if (flavor === undefined) throw new NovaFault(400, `Flavor ${flavorId} could not be found.`);
  const imageRef = optionalString(server, 'imageRef');
  if (imageRef === undefined || imageRef === '') throw new NovaFault(400, 'The Nova stand-in boots from images only (imageRef); boot from volume needs Cinder');
  for (const count of ['min_count', 'max_count']) {
    if (server[count] !== undefined && Number(server[count]) !== 1) throw new NovaFault(400, `The Nova stand-in creates one server per request (${count} ${String(server[count])})`);
  }
  const metadata = server['metadata'] ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((value) => typeof value !== 'string')) {
    throw new NovaFault(400, `Invalid input for field/attribute metadata. Value: ${JSON.stringify(metadata)}. Metadata values must be strings`);
  }
  const groups = server['security_groups'];
  if (groups !== undefined && (!Array.isArray(groups) || groups.some((group) => typeof (group as { name?: unknown } | null)?.name !== 'string'))) {
    throw new NovaFault(400, `Invalid input for field/attribute security_groups. Value: ${JSON.stringify(groups)}. Each needs a "name"`);
  }
  const zone = optionalString(server, 'availability_zone');
  return {
    name,
    flavor,
    imageId: lastSegment(imageRef),
    availabilityZone: zone === undefined || zone === '' ? defaultZone : zone,
    metadata: { ...(metadata as Record<string, string>) },
    description: optionalString(server, 'description') ?? null,
    keyName: optionalString(server, 'key_name') ?? null,
    securityGroups: groups === undefined ? ['default'] : (groups as { name: string }[]).map((group) => group.name),
    accessIPv4: optionalString(server, 'accessIPv4') ?? '',
    accessIPv6: optionalString(server, 'accessIPv6') ?? '',
    userData: optionalString(server, 'user_data') ?? null,
    networks: networkChoice(server['networks'], version),
  };
}

function networkChoice(networks: unknown, version: Microversion): NetworkChoice {
  const from237 = atLeast(version, '2.37');
  if (networks === undefined) {
    if (from237) throw new NovaFault(400, "Invalid input for field/attribute server. 'networks' is a required property");
    return { kind: 'auto' };
  }
  if (networks === 'none' || networks === 'auto') {
    if (!from237) throw new NovaFault(400, `Invalid input for field/attribute networks. Value: ${networks}. '${networks}' is not of type 'array'`);
    return { kind: networks };
  }
  if (!Array.isArray(networks)) throw new NovaFault(400, `Invalid input for field/attribute networks. Value: ${JSON.stringify(networks)}. It is not an array`);
  return {
    kind: 'listed',
    networks: networks.map((entry: unknown): NetworkRequest => {
      const network = (entry ?? {}) as { uuid?: unknown; port?: unknown; fixed_ip?: unknown };
      if (typeof network.port === 'string' && network.port !== '') return { port: network.port };
      if (typeof network.uuid === 'string' && network.uuid !== '') return { network: network.uuid, ...(typeof network.fixed_ip === 'string' ? { fixedIp: network.fixed_ip } : {}) };
      throw new NovaFault(400, `Invalid input for field/attribute networks. Value: ${JSON.stringify(entry)}. A network needs "uuid" or "port"`);
    }),
  };
}
