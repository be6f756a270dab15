/** core/v1 Secret: `stringData` is folded into base64 `data` on write, like the apiserver does. */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import { objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { allVerbs, ageColumn, column, decodeError, expectType, metadataFieldSelectors, nameColumn, objectAge, text } from './common.js';
import { countEntries, dataSize, validateDataKeys, validateImmutable } from './config-data.js';
import { dns1123SubdomainErrors } from './name-validation.js';
import type { ResourceDefinition } from './resource-definition.js';
import type { KubeObject } from '../api/kube-object.js';

const maxSize = 1024 * 1024;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const requiredKeysByType: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
};

function prepare(secret: KubeObject): void {
  expectType('Secret', 'v1', 'Secret.data', secret['data'], 'object');
  expectType('Secret', 'v1', 'Secret.stringData', secret['stringData'], 'object');
  expectType('Secret', 'v1', 'Secret.type', secret['type'], 'string');
  const data: Record<string, unknown> = isPlainObject(secret['data']) ? secret['data'] : {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !base64Pattern.test(value)) {
      throw decodeError('Secret', 'v1', `illegal base64 data at input byte 0 (data[${key}])`);
    }
  }
  const stringData = secret['stringData'];
  if (isPlainObject(stringData)) {
    for (const [key, value] of Object.entries(stringData)) {
      if (typeof value !== 'string') throw decodeError('Secret', 'v1', `json: cannot unmarshal ${typeof value} into Go struct field Secret.stringData of type string`);
      data[key] = Buffer.from(value, 'utf8').toString('base64');
    }
    secret['data'] = data;
    delete secret['stringData'];
  }
  if (secret['type'] === undefined || secret['type'] === '') secret['type'] = 'Opaque';
}

function validateSecret(secret: KubeObject): FieldError[] {
  const errors = validateDataKeys(secret, ['data']);
  const data = isPlainObject(secret['data']) ? secret['data'] : {};
  for (const key of requiredKeysByType[text(secret['type'])] ?? []) if (!(key in data)) errors.push(fieldErrors.required(`data[${key}]`));
  if (dataSize(secret, ['data']) > maxSize) errors.push(fieldErrors.tooLong('data', maxSize));
  return errors;
}

export const secretResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'secrets',
  singular: 'secret',
  kind: 'Secret',
  listKind: 'SecretList',
  namespaced: true,
  shortNames: [],
  verbs: allVerbs,
  hasStatus: false,
  storageKey: '/secrets',
  allowCreateOnUpdate: false,
  validateName: dns1123SubdomainErrors,
  fieldSelectors: { ...metadataFieldSelectors(true), type: (secret) => text(secret['type']) },
  patchSchema: objectPatchSchema(),
  timeFields: [],
  prepareForCreate: prepare,
  prepareForUpdate: prepare,
  validate: validateSecret,
  validateUpdate(secret, old) {
    const errors = validateImmutable(secret, old, ['data']);
    if (text(secret['type']) !== text(old['type'])) errors.push(fieldErrors.invalid('type', secret['type'], 'field is immutable'));
    return errors;
  },
  table: {
    columns: [nameColumn, column('Type', 'string', 'The type of the secret'), column('Data', 'string', 'The number of items in the secret'), ageColumn],
    cells: (secret, now) => [secret.metadata.name ?? '', text(secret['type']), countEntries(secret, ['data']), objectAge(secret, now)],
  },
};
