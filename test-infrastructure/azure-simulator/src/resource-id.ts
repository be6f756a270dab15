/** ARM resource ids: built with the caller's spelling, compared case-insensitively (as ARM does). */

export type Json = Record<string, unknown>;

export const idKey = (id: string): string => id.toLowerCase();

export function resourceGroupId(subscriptionId: string, resourceGroup: string): string {
  return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}`;
}

export function providerResourceId(subscriptionId: string, resourceGroup: string, namespace: string, type: string, name: string): string {
  return `${resourceGroupId(subscriptionId, resourceGroup)}/providers/${namespace}/${type}/${name}`;
}

export interface ParsedResourceId {
  subscriptionId: string;
  resourceGroup: string;
  /** `Microsoft.Network` */
  namespace: string;
  /** Type and name pairs after the namespace: [['loadBalancers','lb'],['backendAddressPools','pool']]. */
  segments: Array<[string, string]>;
}

/** Parses `/subscriptions/{s}/resourceGroups/{rg}/providers/{ns}/{type}/{name}[/{type}/{name}]...`; undefined otherwise. */
export function parseResourceId(id: string): ParsedResourceId | undefined {
  const parts = id.split('/');
  if (parts[0] !== '' || parts[1]?.toLowerCase() !== 'subscriptions' || parts[3]?.toLowerCase() !== 'resourcegroups' || parts[5]?.toLowerCase() !== 'providers') return undefined;
  const [subscriptionId, resourceGroup, namespace] = [parts[2], parts[4], parts[6]];
  if (!subscriptionId || !resourceGroup || !namespace) return undefined;
  const rest = parts.slice(7);
  if (rest.length === 0 || rest.length % 2 !== 0 || rest.some((part) => part === '')) return undefined;
  const segments: Array<[string, string]> = [];
  for (let index = 0; index < rest.length; index += 2) segments.push([rest[index] as string, rest[index + 1] as string]);
  return { subscriptionId, resourceGroup, namespace, segments };
}

/** The id of the top-level resource an id points into (a subnet's VNet, a pool's load balancer). */
export function topLevelId(id: string): string | undefined {
  const parsed = parseResourceId(id);
  const first = parsed?.segments[0];
  if (!parsed || !first) return undefined;
  return providerResourceId(parsed.subscriptionId, parsed.resourceGroup, parsed.namespace, first[0], first[1]);
}

export const sameId = (left: unknown, right: unknown): boolean => typeof left === 'string' && typeof right === 'string' && idKey(left) === idKey(right);

/** `{ id }` of a sub-resource reference, or undefined. */
export function referenceId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as Json)['id'];
  return typeof id === 'string' ? id : undefined;
}

export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((entry): entry is Json => typeof entry === 'object' && entry !== null && !Array.isArray(entry)) : [];
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}
