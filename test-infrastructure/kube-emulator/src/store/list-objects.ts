/**
 * LIST with kube's resourceVersion semantics, selectors and limit/continue pagination. Pages of
 * one list are served from the same snapshot (rebuilt from the history) so they are consistent.
 */
import { fieldErrors } from '../api/field-error.js';
import type { ListMeta } from '../api/kube-object.js';
import { statusErrors } from '../api/status-error.js';
import type { ResourceDefinition, StoredObject } from '../resources/resource-definition.js';
import type { FieldSelector } from '../selectors/field-selector.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import type { ObjectStore } from './object-store.js';
import { targetMatches } from './watch-subscription.js';

export interface ListRequest {
  namespace?: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListResult {
  items: StoredObject[];
  metadata: ListMeta;
}

interface ContinueToken {
  resourceVersion: number;
  start: string;
}

export function encodeContinueToken(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.resourceVersion, start: token.start }), 'utf8').toString('base64url');
}

function decodeContinueToken(value: string): ContinueToken {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      if (record['v'] === 'meta.k8s.io/v1' && Number.isInteger(record['rv']) && typeof record['start'] === 'string') {
        return { resourceVersion: record['rv'] as number, start: record['start'] };
      }
    }
  } catch {
    // fall through
  }
  throw statusErrors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

export function parseResourceVersion(value: string, parameter = 'resourceVersion'): number {
  if (!/^\d+$/.test(value)) throw statusErrors.badRequest(`invalid ${parameter}: ${JSON.stringify(value)}: must be a non-negative integer`);
  return Number(value);
}

function invalidListOptions(field: string, value: unknown, detail: string): Error {
  return statusErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErrors.forbidden(field, detail)]);
}

/** Which resourceVersion to read at, following kube's rules for resourceVersion/resourceVersionMatch. */
function readVersion(store: ObjectStore, request: ListRequest): { version: number; start: string } {
  const current = store.resourceVersion;
  const match = request.resourceVersionMatch ?? '';
  if (match !== '' && match !== 'NotOlderThan' && match !== 'Exact') {
    throw statusErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan'])]);
  }
  if (request.continueToken) {
    if (request.resourceVersion) throw statusErrors.badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinueToken(request.continueToken);
    return { version: token.resourceVersion, start: token.start };
  }
  const requested = request.resourceVersion ?? '';
  if (requested === '') {
    if (match !== '') throw invalidListOptions('resourceVersionMatch', match, 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    return { version: current, start: '' };
  }
  const version = parseResourceVersion(requested);
  if (match === 'Exact' && version === 0) throw invalidListOptions('resourceVersionMatch', match, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  if (version > current) throw statusErrors.resourceVersionTooLarge(version, current);
  return { version: match === 'Exact' ? version : current, start: '' };
}

export function listObjects(store: ObjectStore, definition: ResourceDefinition, request: ListRequest): ListResult {
  const { version, start } = readVersion(store, request);
  const storage = store.storage(definition);
  const snapshot = storage.snapshot(version);
  if (!snapshot) {
    if (request.continueToken) {
      throw statusErrors.expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    }
    throw statusErrors.expired(`too old resource version: ${version} (${storage.oldestResumableVersion + 1})`);
  }
  const target = { definition, namespace: request.namespace, labelSelector: request.labelSelector, fieldSelector: request.fieldSelector };
  const prefix = definition.namespaced && request.namespace ? `${request.namespace}/` : '';
  const limit = request.limit && request.limit > 0 ? request.limit : Number.POSITIVE_INFINITY;
  const items: StoredObject[] = [];
  let lastKey = '';
  let more = false;
  let remaining = 0;
  const countRemaining = request.labelSelector.empty && request.fieldSelector.empty;
  for (const key of snapshot.keys) {
    if (start !== '' && key < start) continue;
    if (prefix !== '' && !key.startsWith(prefix)) continue;
    const object = snapshot.objects.get(key);
    if (!object || !targetMatches(target, object)) continue;
    if (items.length < limit) {
      items.push(object);
      lastKey = key;
    } else {
      more = true;
      if (!countRemaining) break;
      remaining++;
    }
  }
  const metadata: ListMeta = { resourceVersion: String(version) };
  if (more) {
    metadata.continue = encodeContinueToken({ resourceVersion: version, start: `${lastKey}\u0000` });
    if (countRemaining) metadata.remainingItemCount = remaining;
  }
  return { items, metadata };
}
