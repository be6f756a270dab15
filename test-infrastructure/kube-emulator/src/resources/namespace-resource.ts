/**
 * core/v1 Namespace. Deletion is handled by the store like the namespace controller would:
 * the namespace turns Terminating, its content is deleted, and it goes away once empty.
 */
import type { KubeObject } from '../api/kube-object.js';
import { conditionsPatchSchema, objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { ageColumn, column, ensureObject, expectType, metadataFieldSelectors, nameColumn, objectAge, text } from './common.js';
import { dns1123LabelErrors } from './name-validation.js';
import type { ResourceDefinition } from './resource-definition.js';

export const namespaceStorageKey = '/namespaces';
/** Namespaces kube refuses to delete. */
export const immortalNamespaces: readonly string[] = ['default', 'kube-public', 'kube-system'];
export const initialNamespaces: readonly string[] = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];
const nameLabel = 'kubernetes.io/metadata.name';

function phase(namespace: KubeObject): string {
  return isPlainObject(namespace['status']) ? text(namespace['status']['phase']) : '';
}

function setNameLabel(namespace: KubeObject): void {
  namespace.metadata.labels = { ...(namespace.metadata.labels ?? {}), [nameLabel]: namespace.metadata.name ?? '' };
}

export const namespaceResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  hasStatus: true,
  storageKey: namespaceStorageKey,
  allowCreateOnUpdate: false,
  validateName: dns1123LabelErrors,
  fieldSelectors: { ...metadataFieldSelectors(false), 'status.phase': (namespace) => phase(namespace as KubeObject) },
  patchSchema: objectPatchSchema({ status: { fields: { conditions: conditionsPatchSchema } } }),
  timeFields: [{ path: ['status', 'conditions', '*', 'lastTransitionTime'], precision: 'seconds' }],
  prepareForCreate(namespace) {
    expectType('Namespace', 'v1', 'Namespace.spec', namespace['spec'], 'object');
    const spec = ensureObject(namespace, 'spec');
    if (spec['finalizers'] === undefined) spec['finalizers'] = ['kubernetes'];
    namespace['status'] = { phase: 'Active' };
    setNameLabel(namespace);
  },
  prepareForUpdate(namespace, old) {
    // spec.finalizers only change through the finalize subresource.
    const oldSpec = isPlainObject(old['spec']) ? old['spec'] : {};
    ensureObject(namespace, 'spec')['finalizers'] = oldSpec['finalizers'];
    setNameLabel(namespace);
  },
  table: {
    columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
    cells: (namespace, now) => [namespace.metadata.name ?? '', phase(namespace), objectAge(namespace, now)],
  },
};
