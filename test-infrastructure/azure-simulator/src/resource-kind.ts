/** What each resource kind tells the ARM router: how to accept a PUT, render a body, and check a delete. */
import type { ArmState, ResourceKind, StoredResource } from './arm-state.js';
import { invalidRequestFormat } from './arm-error.js';
import { asArray, asObject, clone, type Json } from './resource-id.js';

export interface AcceptRequest {
  state: ArmState;
  id: string;
  name: string;
  resourceGroup: string;
  input: Json;
  existing: StoredResource | undefined;
}

export interface Accepted {
  body: Json;
  /** Runs once the resource is stored (creates scale-set instances, for example). */
  afterStore?: (resource: StoredResource) => void;
}

export interface RenderOptions {
  /** `$expand=instanceView` on compute reads. */
  expandInstanceView: boolean;
}

export interface ResourceKindHandler {
  kind: ResourceKind;
  accept(request: AcceptRequest): Accepted;
  render(resource: StoredResource, state: ArmState, options: RenderOptions): Json;
  /** Throws the ARM error that blocks deleting `resource`. */
  checkDelete(resource: StoredResource, state: ArmState): void;
  /** Removes what goes with the resource (a scale set's instances). */
  afterDelete?(resource: StoredResource, state: ArmState): void;
}

/** Keys the server owns: dropped from a request (ARM ignores read-only input) and set again on render. */
export function withoutKeys(object: Json, keys: readonly string[]): Json {
  const copy = clone(object);
  for (const key of keys) delete copy[key];
  return copy;
}

/**
 * Gives each nested item of a Microsoft.Network resource (`subnets`, `probes`, ...) its id under the
 * parent; drops read-only keys. Names are required and unique.
 */
export function normalizeNested(parentId: string, items: unknown, segment: string, readOnlyProperties: readonly string[]): Json[] {
  if (items !== undefined && !Array.isArray(items)) throw invalidRequestFormat(`properties.${segment} must be an array.`);
  const seen = new Set<string>();
  return asArray(items).map((item) => {
    const name = item['name'];
    if (typeof name !== 'string' || name === '') throw invalidRequestFormat(`Every entry of properties.${segment} needs a name.`);
    if (seen.has(name.toLowerCase())) throw invalidRequestFormat(`properties.${segment} has two entries named '${name}'.`);
    seen.add(name.toLowerCase());
    const properties = withoutKeys(asObject(item['properties']), ['provisioningState', ...readOnlyProperties]);
    return { name, id: `${parentId}/${segment}/${name}`, properties };
  });
}

/** The `{ name, id, etag, type, location, tags, ...body }` envelope of a top-level resource. */
export function envelope(resource: StoredResource, type: string, body: Json): Json {
  return {
    name: resource.name,
    id: resource.id,
    etag: resource.etag,
    type,
    location: resource.location,
    ...(resource.tags ? { tags: clone(resource.tags) } : {}),
    ...body,
  };
}

export function stringField(object: Json, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}
