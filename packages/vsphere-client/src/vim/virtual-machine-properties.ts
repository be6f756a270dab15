/**
 * Typed reading of the VirtualMachine properties a cloud provider needs, from one ObjectContent.
 * Absent properties stay undefined (a powered-off VM has no guest data, a VM being created may
 * have no config yet).
 */
import type { XmlNode } from '../xml/parse-xml.js';
import { boolOf, child, childText, children, intOf, textOf } from '../xml/xml-node.js';
import { readManagedObjectReference, type ManagedObjectReference } from './managed-object-reference.js';
import type { MissingProperty, ObjectContent } from './property-collector-specs.js';

/** Every path `decodeVirtualMachine` understands; ask for a subset when you need less. */
export const VIRTUAL_MACHINE_PROPERTY_PATHS = [
  'name',
  'config.uuid',
  'config.instanceUuid',
  'config.guestId',
  'config.extraConfig',
  'summary.config.numCpu',
  'summary.config.memorySizeMB',
  'summary.config.guestId',
  'guest.hostName',
  'guest.ipAddress',
  'guest.net',
  'runtime.powerState',
  'runtime.host',
  'resourcePool',
  'parent',
] as const;

export type VirtualMachinePropertyPath = (typeof VIRTUAL_MACHINE_PROPERTY_PATHS)[number];

/** `guest.net[*]` (GuestNicInfo). */
export interface GuestNicInfo {
  network: string | undefined;
  ipAddresses: string[];
  macAddress: string | undefined;
  connected: boolean | undefined;
  /** The virtual device key, or -1 for interfaces that are not vNICs (bridges, CNI devices). */
  deviceConfigId: number | undefined;
}

export type VirtualMachinePowerState = 'poweredOn' | 'poweredOff' | 'suspended';

export interface VirtualMachineProperties {
  reference: ManagedObjectReference;
  name?: string;
  /** BIOS UUID (`config.uuid`), as vCenter spells it. */
  uuid?: string;
  instanceUuid?: string;
  /** `summary.config.guestId`, else `config.guestId`. */
  guestId?: string;
  numCpu?: number;
  memorySizeMB?: number;
  guestHostName?: string;
  guestIpAddress?: string;
  guestNet?: GuestNicInfo[];
  powerState?: VirtualMachinePowerState | string;
  host?: ManagedObjectReference;
  resourcePool?: ManagedObjectReference;
  parent?: ManagedObjectReference;
  /** `config.extraConfig` as key -> value (string values only). */
  extraConfig?: ReadonlyMap<string, string>;
  /** Properties the server reported missing, with their fault kinds. */
  missing: readonly MissingProperty[];
}

export function decodeVirtualMachine(content: ObjectContent): VirtualMachineProperties {
  const value = (path: VirtualMachinePropertyPath): XmlNode | undefined => content.properties.get(path);
  const text = (path: VirtualMachinePropertyPath): string | undefined => textOf(value(path));
  const result: VirtualMachineProperties = { reference: content.obj, missing: content.missing };
  assign(result, 'name', text('name'));
  assign(result, 'uuid', text('config.uuid'));
  assign(result, 'instanceUuid', text('config.instanceUuid'));
  assign(result, 'guestId', nonEmpty(text('summary.config.guestId')) ?? text('config.guestId'));
  assign(result, 'numCpu', intOf(value('summary.config.numCpu')));
  assign(result, 'memorySizeMB', intOf(value('summary.config.memorySizeMB')));
  assign(result, 'guestHostName', text('guest.hostName'));
  assign(result, 'guestIpAddress', text('guest.ipAddress'));
  assign(result, 'powerState', text('runtime.powerState'));
  assign(result, 'host', readManagedObjectReference(value('runtime.host')));
  assign(result, 'resourcePool', readManagedObjectReference(value('resourcePool')));
  assign(result, 'parent', readManagedObjectReference(value('parent')));
  const net = value('guest.net');
  if (net !== undefined) result.guestNet = children(net, 'GuestNicInfo').map(decodeGuestNicInfo);
  const extraConfig = value('config.extraConfig');
  if (extraConfig !== undefined) result.extraConfig = decodeOptionValues(extraConfig);
  return result;
}

export function decodeGuestNicInfo(node: XmlNode): GuestNicInfo {
  return {
    network: childText(node, 'network'),
    ipAddresses: children(node, 'ipAddress')
      .map((address) => textOf(address))
      .filter((address): address is string => address !== undefined && address !== ''),
    macAddress: childText(node, 'macAddress'),
    connected: boolOf(child(node, 'connected')),
    deviceConfigId: intOf(child(node, 'deviceConfigId')),
  };
}

/** ArrayOfOptionValue -> key -> value; non-string values are kept as their text. */
export function decodeOptionValues(node: XmlNode): Map<string, string> {
  const values = new Map<string, string>();
  for (const option of children(node, 'OptionValue')) {
    const key = childText(option, 'key');
    if (key === undefined) continue;
    values.set(key, textOf(child(option, 'value')) ?? '');
  }
  return values;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

function assign<K extends keyof VirtualMachineProperties>(target: VirtualMachineProperties, key: K, value: VirtualMachineProperties[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
