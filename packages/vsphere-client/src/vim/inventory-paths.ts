import type { ManagedObjectReference } from './managed-object-reference.js';

export interface DatacenterInfo {
  reference: ManagedObjectReference;
  name: string;
  /** Inventory path from the root folder: `/DC0`, `/F0/DC1` (the root folder itself is `/`). */
  path: string;
}

interface Entity {
  reference: ManagedObjectReference;
  name: string;
  parent: ManagedObjectReference | undefined;
}

/** Builds inventory paths of the datacenters among `entities` (folders and datacenters), sorted by path. */
export function buildInventoryPaths(entities: readonly Entity[], rootFolder: ManagedObjectReference): DatacenterInfo[] {
  const byKey = new Map(entities.map((entity) => [`${entity.reference.type}:${entity.reference.value}`, entity]));
  const rootKey = `${rootFolder.type}:${rootFolder.value}`;
  const pathOf = (entity: Entity): string | undefined => {
    const segments: string[] = [];
    let current: Entity | undefined = entity;
    for (let depth = 0; depth < 64; depth++) {
      if (current === undefined) return undefined;
      if (`${current.reference.type}:${current.reference.value}` === rootKey) return `/${segments.join('/')}`;
      segments.unshift(current.name);
      const parent: ManagedObjectReference | undefined = current.parent;
      current = parent === undefined ? undefined : byKey.get(`${parent.type}:${parent.value}`);
    }
    return undefined;
  };
  const datacenters: DatacenterInfo[] = [];
  for (const entity of entities) {
    if (entity.reference.type !== 'Datacenter') continue;
    const path = pathOf(entity);
    if (path !== undefined) datacenters.push({ reference: entity.reference, name: entity.name, path });
  }
  return datacenters.sort((left, right) => left.path.localeCompare(right.path));
}
