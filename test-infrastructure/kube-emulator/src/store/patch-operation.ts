/** PATCH: apply a JSON, merge or strategic merge patch to the served form, then update. */
import type { KubeObject } from '../api/kube-object.js';
import { statusErrors } from '../api/status-error.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { PatchError } from '../patch/patch-error.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { groupVersion, type ResourceDefinition, type StoredObject } from '../resources/resource-definition.js';
import { isPlainObject } from '../util/json.js';
import { decodeBody } from './object-preparation.js';
import type { ObjectStore } from './object-store.js';
import { servedObject } from './serialization.js';
import { applyUpdate, groupResource, type UpdateOptions } from './write-operations.js';

export type PatchType = 'json' | 'merge' | 'strategic';

export const patchContentTypes: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

function patchFailure(error: PatchError): Error {
  switch (error.kind) {
    case 'bad-request':
      return statusErrors.badRequest(error.message);
    case 'unprocessable':
      return statusErrors.unprocessable(error.message);
    case 'internal':
      return statusErrors.internal(error.message);
  }
}

export function applyPatchDocument(definition: ResourceDefinition, current: KubeObject, type: PatchType, patch: unknown): unknown {
  try {
    switch (type) {
      case 'json':
        return applyJsonPatch(current, patch);
      case 'merge':
        if (!isPlainObject(patch)) throw new PatchError('bad-request', 'json: cannot unmarshal a merge patch that is not a JSON object');
        return applyMergePatch(current, patch);
      case 'strategic':
        return applyStrategicMergePatch(current, patch, definition.patchSchema);
    }
  } catch (error) {
    if (error instanceof PatchError) throw patchFailure(error);
    throw error;
  }
}

export function patchObject(
  store: ObjectStore,
  definition: ResourceDefinition,
  namespace: string | undefined,
  name: string,
  type: PatchType,
  patch: unknown,
  options: UpdateOptions = {},
): StoredObject {
  const old = store.get(definition, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(definition), name);
  const current = { kind: definition.kind, apiVersion: groupVersion(definition), ...servedObject(definition, old) };
  const patched = applyPatchDocument(definition, current, type, patch);
  if (!isPlainObject(patched)) throw statusErrors.badRequest('the patched document is not a JSON object');
  const object = decodeBody(definition, patched);
  if (object.metadata.name !== name) throw statusErrors.badRequest(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`);
  if (definition.namespaced && object.metadata.namespace !== old.metadata.namespace) {
    throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const requested = object.metadata.resourceVersion;
  if (requested && requested !== old.metadata.resourceVersion) throw statusErrors.staleResourceVersion(groupResource(definition), name);
  return applyUpdate(store, definition, old, object, options);
}
