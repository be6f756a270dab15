/**
 * The stand-in's flavors (Nova has none until an operator creates them; these are the classic
 * m1.* set devstack creates, with Nova's IDs) and their views up to 2.47: the list shows id,
 * links and name; detail and get add the sizes, `swap` as "" when 0 (as Nova before 2.75), and
 * the public/disabled/ephemeral extension attributes.
 */
import type { Links } from './nova-links.js';

export interface FlavorRecord {
  id: string;
  name: string;
  ram: number;
  vcpus: number;
  disk: number;
  ephemeral: number;
  swap: number;
  rxtxFactor: number;
  isPublic: boolean;
  disabled: boolean;
  extraSpecs: Record<string, string>;
}

export function flavor(id: string, name: string, ram: number, disk: number, vcpus: number): FlavorRecord {
  return { id, name, ram, disk, vcpus, ephemeral: 0, swap: 0, rxtxFactor: 1.0, isPublic: true, disabled: false, extraSpecs: {} };
}

export const DEFAULT_FLAVORS: readonly FlavorRecord[] = [
  flavor('1', 'm1.tiny', 512, 1, 1),
  flavor('2', 'm1.small', 2048, 20, 1),
  flavor('3', 'm1.medium', 4096, 40, 2),
  flavor('4', 'm1.large', 8192, 80, 4),
  flavor('5', 'm1.xlarge', 16384, 160, 8),
];

export function flavorSummaryView(record: FlavorRecord, links: Links): Record<string, unknown> {
  return { id: record.id, links: links.resource('flavors', record.id), name: record.name };
}

export function flavorDetailView(record: FlavorRecord, links: Links): Record<string, unknown> {
  return {
    id: record.id,
    links: links.resource('flavors', record.id),
    name: record.name,
    ram: record.ram,
    vcpus: record.vcpus,
    disk: record.disk,
    swap: record.swap === 0 ? '' : record.swap,
    rxtx_factor: record.rxtxFactor,
    'OS-FLV-EXT-DATA:ephemeral': record.ephemeral,
    'OS-FLV-DISABLED:disabled': record.disabled,
    'os-flavor-access:is_public': record.isPublic,
  };
}

/** A `flavorRef` is the flavor's ID or a link ending in it. */
export function flavorIdOfReference(reference: string): string {
  const trimmed = reference.replace(/\/+$/, '');
  return trimmed.includes('/') ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : trimmed;
}
