/** coordination.k8s.io/v1 Lease (leader election, node heartbeats). */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import { objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { allVerbs, ageColumn, column, expectType, metadataFieldSelectors, nameColumn, objectAge, text } from './common.js';
import { dns1123SubdomainErrors } from './name-validation.js';
import type { ResourceDefinition } from './resource-definition.js';

export const leaseResource: ResourceDefinition = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  singular: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  namespaced: true,
  shortNames: [],
  verbs: allVerbs,
  hasStatus: false,
  storageKey: 'coordination.k8s.io/leases',
  allowCreateOnUpdate: true,
  validateName: dns1123SubdomainErrors,
  fieldSelectors: metadataFieldSelectors(true),
  patchSchema: objectPatchSchema(),
  timeFields: [
    { path: ['spec', 'acquireTime'], precision: 'microseconds' },
    { path: ['spec', 'renewTime'], precision: 'microseconds' },
  ],
  prepareForCreate: (lease) => expectType('Lease', 'coordination.k8s.io/v1', 'Lease.spec', lease['spec'], 'object'),
  prepareForUpdate: (lease) => expectType('Lease', 'coordination.k8s.io/v1', 'Lease.spec', lease['spec'], 'object'),
  validate(lease) {
    const errors: FieldError[] = [];
    const spec = isPlainObject(lease['spec']) ? lease['spec'] : {};
    const duration = spec['leaseDurationSeconds'];
    if (duration !== undefined && (!Number.isInteger(duration) || (duration as number) <= 0)) {
      errors.push(fieldErrors.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
    }
    const transitions = spec['leaseTransitions'];
    if (transitions !== undefined && (!Number.isInteger(transitions) || (transitions as number) < 0)) {
      errors.push(fieldErrors.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
    }
    return errors;
  },
  renderDefaults(lease) {
    if (lease['spec'] === undefined) lease['spec'] = {};
  },
  table: {
    columns: [nameColumn, column('Holder', 'string', 'The holder of the lease'), ageColumn],
    cells: (lease, now) => [lease.metadata.name ?? '', isPlainObject(lease['spec']) ? text(lease['spec']['holderIdentity']) : '', objectAge(lease, now)],
  },
};
