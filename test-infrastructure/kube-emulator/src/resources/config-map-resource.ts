/** core/v1 ConfigMap. */
import { fieldErrors } from '../api/field-error.js';
import { objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { allVerbs, ageColumn, column, expectType, metadataFieldSelectors, nameColumn, objectAge } from './common.js';
import { countEntries, dataSize, validateDataKeys, validateImmutable } from './config-data.js';
import { dns1123SubdomainErrors } from './name-validation.js';
import type { ResourceDefinition } from './resource-definition.js';

const dataFields = ['data', 'binaryData'];
const maxSize = 1024 * 1024;

function checkTypes(configMap: Record<string, unknown>): void {
  for (const field of dataFields) {
    expectType('ConfigMap', 'v1', `ConfigMap.${field}`, configMap[field], 'object');
    const data = configMap[field];
    if (isPlainObject(data)) for (const value of Object.values(data)) expectType('ConfigMap', 'v1', `ConfigMap.${field}`, value, 'string');
  }
  expectType('ConfigMap', 'v1', 'ConfigMap.immutable', configMap['immutable'], 'boolean');
}

export const configMapResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  namespaced: true,
  shortNames: ['cm'],
  verbs: allVerbs,
  hasStatus: false,
  storageKey: '/configmaps',
  allowCreateOnUpdate: false,
  validateName: dns1123SubdomainErrors,
  fieldSelectors: metadataFieldSelectors(true),
  patchSchema: objectPatchSchema(),
  timeFields: [],
  prepareForCreate: checkTypes,
  prepareForUpdate: checkTypes,
  validate(configMap) {
    const errors = validateDataKeys(configMap, dataFields);
    if (dataSize(configMap, dataFields) > maxSize) errors.push(fieldErrors.tooLong('', maxSize));
    return errors;
  },
  validateUpdate: (configMap, old) => validateImmutable(configMap, old, dataFields),
  table: {
    columns: [nameColumn, column('Data', 'string', 'Data contains the configuration data.'), ageColumn],
    cells: (configMap, now) => [configMap.metadata.name ?? '', countEntries(configMap, dataFields), objectAge(configMap, now)],
  },
};
