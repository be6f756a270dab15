/**
 * A server as Nova shows it at a microversion (pure): the 2.1 view with the extended-status,
 * availability-zone, disk-config, usage, volumes and (admin only) server-attribute extensions;
 * 2.3 adds the other `OS-EXT-SRV-ATTR:*` (admin), 2.9 `locked`, 2.16 `host_status` (admin),
 * 2.19 `description`, 2.26 `tags`, 2.47 the embedded flavor instead of a flavor link.
 */
import { createHash } from 'node:crypto';
import type { FlavorRecord } from './nova-flavors.js';
import type { Links } from './nova-links.js';
import { atLeast, type Microversion } from './nova-microversion.js';
import { powerState, serverStatus, type ServerRecord } from './nova-server-record.js';

export interface ServerAddress {
  version: 4 | 6;
  addr: string;
  'OS-EXT-IPS:type': 'fixed' | 'floating';
  'OS-EXT-IPS-MAC:mac_addr': string;
}

export interface ServerViewContext {
  version: Microversion;
  links: Links;
  /** Admin-only attributes are shown to tokens with the admin role. */
  admin: boolean;
  /** Network name -> addresses, from the server's Neutron ports. */
  addresses: Record<string, ServerAddress[]>;
  flavor: FlavorRecord | undefined;
}

/** Nova's time formats: `2013-09-03T04:01:32Z` and (usage) `2013-09-03T04:01:32.000000`. */
export function isoTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function usageTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}.${String(date.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
}

/** Nova's hostId: sha224 of project ID and host (empty without a host). */
export function hostId(projectId: string, host: string): string {
  return host === '' ? '' : createHash('sha224').update(projectId + host).digest('hex');
}

export function serverSummaryView(record: ServerRecord, links: Links): Record<string, unknown> {
  return { id: record.id, links: links.resource('servers', record.id), name: record.name };
}

export function serverDetailView(record: ServerRecord, context: ServerViewContext): Record<string, unknown> {
  const { version, links, admin } = context;
  const status = serverStatus(record);
  const view: Record<string, unknown> = {
    id: record.id,
    name: record.name,
    status,
    tenant_id: record.projectId,
    user_id: record.userId,
    metadata: { ...record.metadata },
    hostId: hostId(record.projectId, record.host),
    image: record.imageId === '' ? '' : { id: record.imageId, links: links.bookmark('images', record.imageId) },
    flavor: flavorInServer(record, context),
    created: isoTime(record.created),
    updated: isoTime(record.updated),
    addresses: context.addresses,
    accessIPv4: record.accessIPv4,
    accessIPv6: record.accessIPv6,
    links: links.resource('servers', record.id),
    key_name: record.keyName,
    config_drive: '',
    'OS-DCF:diskConfig': 'MANUAL',
    'OS-EXT-AZ:availability_zone': record.availabilityZone,
    'OS-EXT-STS:power_state': powerState(record),
    'OS-EXT-STS:task_state': null,
    'OS-EXT-STS:vm_state': record.vmState,
    'OS-SRV-USG:launched_at': usageTime(record.launchedAt),
    'OS-SRV-USG:terminated_at': null,
    'os-extended-volumes:volumes_attached': [],
  };
  // Nova shows progress only while a server is building or changing.
  if (status === 'ACTIVE') view['progress'] = 0;
  if (record.securityGroups.length > 0) view['security_groups'] = record.securityGroups.map((name) => ({ name }));
  if (admin) {
    view['OS-EXT-SRV-ATTR:host'] = record.host;
    view['OS-EXT-SRV-ATTR:hypervisor_hostname'] = record.host;
    view['OS-EXT-SRV-ATTR:instance_name'] = record.instanceName;
    if (atLeast(version, '2.3')) {
      view['OS-EXT-SRV-ATTR:hostname'] = hostnameOf(record.name);
      view['OS-EXT-SRV-ATTR:kernel_id'] = '';
      view['OS-EXT-SRV-ATTR:launch_index'] = 0;
      view['OS-EXT-SRV-ATTR:ramdisk_id'] = '';
      view['OS-EXT-SRV-ATTR:reservation_id'] = record.reservationId;
      view['OS-EXT-SRV-ATTR:root_device_name'] = '/dev/vda';
      view['OS-EXT-SRV-ATTR:user_data'] = record.userData;
    }
    if (atLeast(version, '2.16')) view['host_status'] = 'UP';
  }
  if (atLeast(version, '2.9')) view['locked'] = false;
  if (atLeast(version, '2.19')) view['description'] = record.description;
  if (atLeast(version, '2.26')) view['tags'] = [...record.tags];
  return view;
}

function flavorInServer(record: ServerRecord, context: ServerViewContext): Record<string, unknown> {
  if (!atLeast(context.version, '2.47')) return { id: record.flavorId, links: context.links.bookmark('flavors', record.flavorId) };
  const flavor = context.flavor;
  const embedded: Record<string, unknown> = {
    vcpus: flavor?.vcpus ?? 0,
    ram: flavor?.ram ?? 0,
    disk: flavor?.disk ?? 0,
    ephemeral: flavor?.ephemeral ?? 0,
    swap: flavor?.swap ?? 0,
    original_name: flavor?.name ?? record.flavorId,
  };
  // Nova shows the flavor's extra specs to those allowed to read them (admin by default).
  if (context.admin) embedded['extra_specs'] = { ...(flavor?.extraSpecs ?? {}) };
  return embedded;
}

/** Nova's hostname from a display name: lower case, runs of other characters to '-'. */
export function hostnameOf(name: string): string {
  const hostname = name.toLowerCase().replace(/[^\w.-]+/g, '-').replace(/_/g, '-').replace(/^[.-]+|[.-]+$/g, '').slice(0, 63);
  return hostname === '' ? 'server' : hostname;
}
