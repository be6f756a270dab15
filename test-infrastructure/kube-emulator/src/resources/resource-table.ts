/** The resources the emulator serves. Adding a resource is adding its definition here. */
import { configMapResource } from './config-map-resource.js';
import { coreEventResource, eventsV1EventResource } from './event-resource.js';
import { leaseResource } from './lease-resource.js';
import { namespaceResource } from './namespace-resource.js';
import { nodeResource } from './node-resource.js';
import type { ResourceDefinition } from './resource-definition.js';
import { secretResource } from './secret-resource.js';
import { serviceResource } from './service-resource.js';

export const resourceTable: readonly ResourceDefinition[] = [
  nodeResource,
  serviceResource,
  namespaceResource,
  configMapResource,
  secretResource,
  coreEventResource,
  leaseResource,
  eventsV1EventResource,
];

/** API groups other than core, with their versions, in discovery order. */
export function apiGroups(table: readonly ResourceDefinition[] = resourceTable): Array<{ name: string; versions: string[] }> {
  const groups = new Map<string, string[]>();
  for (const definition of table) {
    if (definition.group === '') continue;
    const versions = groups.get(definition.group) ?? [];
    if (!versions.includes(definition.version)) versions.push(definition.version);
    groups.set(definition.group, versions);
  }
  return [...groups].map(([name, versions]) => ({ name, versions }));
}

export function findResource(group: string, version: string, plural: string, table: readonly ResourceDefinition[] = resourceTable): ResourceDefinition | undefined {
  return table.find((definition) => definition.group === group && definition.version === version && definition.plural === plural);
}

/**
 * Resolves a name the way kubectl does: `nodes`, `node`, `no`, `Node`, or group-qualified
 * (`leases.coordination.k8s.io`, `events.events.k8s.io`). Core wins over other groups.
 */
export function resolveResource(name: string, table: readonly ResourceDefinition[] = resourceTable): ResourceDefinition | undefined {
  const lower = name.toLowerCase();
  const matches = (definition: ResourceDefinition, candidate: string): boolean =>
    candidate === definition.plural || candidate === definition.singular || candidate === definition.kind.toLowerCase() || definition.shortNames.includes(candidate);
  for (const definition of table) {
    if (definition.group !== '' && lower.endsWith(`.${definition.group}`) && matches(definition, lower.slice(0, -definition.group.length - 1))) return definition;
  }
  return table.find((definition) => definition.group === '' && matches(definition, lower)) ?? table.find((definition) => matches(definition, lower));
}
