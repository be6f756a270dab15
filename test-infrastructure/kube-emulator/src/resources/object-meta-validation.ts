/** Validation of metadata common to every resource (ObjectMeta), as apimachinery does it. */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject, ObjectMeta } from '../api/kube-object.js';
import { isPlainObject } from '../util/json.js';
import { dns1123LabelErrors, labelValueErrors, pathSegmentNameErrors, qualifiedNameErrors, type NameValidator } from './name-validation.js';

const totalAnnotationSizeLimit = 256 * 1024;

export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator): FieldError[] {
  const errors: FieldError[] = [];
  const name = meta.name ?? '';
  if (name === '') {
    errors.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const message of [...pathSegmentNameErrors(name), ...validateName(name)]) errors.push(fieldErrors.invalid('metadata.name', name, message));
  }
  if (namespaced) {
    const namespace = meta.namespace ?? '';
    if (namespace === '') errors.push(fieldErrors.required('metadata.namespace'));
    else for (const message of dns1123LabelErrors(namespace)) errors.push(fieldErrors.invalid('metadata.namespace', namespace, message));
  } else if (meta.namespace) {
    errors.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  errors.push(...validateLabels(meta.labels, 'metadata.labels'));
  errors.push(...validateAnnotations(meta.annotations));
  errors.push(...validateOwnerReferences(meta.ownerReferences));
  errors.push(...validateFinalizers(meta.finalizers));
  return errors;
}

export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (labels === undefined) return [];
  if (!isPlainObject(labels)) return [fieldErrors.invalid(field, labels, 'must be a map of string keys to string values')];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const message of qualifiedNameErrors(key)) errors.push(fieldErrors.invalid(field, key, message));
    if (typeof value !== 'string') errors.push(fieldErrors.invalid(field, value, 'label values must be strings'));
    else for (const message of labelValueErrors(value)) errors.push(fieldErrors.invalid(field, value, message));
  }
  return errors;
}

function validateAnnotations(annotations: unknown): FieldError[] {
  if (annotations === undefined) return [];
  const field = 'metadata.annotations';
  if (!isPlainObject(annotations)) return [fieldErrors.invalid(field, annotations, 'must be a map of string keys to string values')];
  const errors: FieldError[] = [];
  let totalSize = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const message of qualifiedNameErrors(key.toLowerCase())) errors.push(fieldErrors.invalid(field, key, message));
    if (typeof value !== 'string') errors.push(fieldErrors.invalid(field, value, 'annotation values must be strings'));
    totalSize += key.length + (typeof value === 'string' ? value.length : 0);
  }
  if (totalSize > totalAnnotationSizeLimit) errors.push(fieldErrors.tooLong(field, totalAnnotationSizeLimit));
  return errors;
}

function validateOwnerReferences(references: unknown): FieldError[] {
  if (references === undefined) return [];
  const field = 'metadata.ownerReferences';
  if (!Array.isArray(references)) return [fieldErrors.invalid(field, references, 'must be a list')];
  const errors: FieldError[] = [];
  let controllers = 0;
  references.forEach((reference: unknown) => {
    if (!isPlainObject(reference)) {
      errors.push(fieldErrors.invalid(field, reference, 'must be an object'));
      return;
    }
    if (!reference['apiVersion']) errors.push(fieldErrors.invalid(`${field}.apiVersion`, reference['apiVersion'] ?? '', 'version must not be empty'));
    if (!reference['kind']) errors.push(fieldErrors.invalid(`${field}.kind`, reference['kind'] ?? '', 'kind must not be empty'));
    if (!reference['name']) errors.push(fieldErrors.invalid(`${field}.name`, reference['name'] ?? '', 'name must not be empty'));
    if (!reference['uid']) errors.push(fieldErrors.invalid(`${field}.uid`, reference['uid'] ?? '', 'uid must not be empty'));
    if (reference['controller'] === true) controllers++;
  });
  if (controllers > 1) errors.push(fieldErrors.invalid(field, references, 'Only one reference can have Controller set to true'));
  return errors;
}

function validateFinalizers(finalizers: unknown): FieldError[] {
  if (finalizers === undefined) return [];
  const field = 'metadata.finalizers';
  if (!Array.isArray(finalizers)) return [fieldErrors.invalid(field, finalizers, 'must be a list of strings')];
  const errors: FieldError[] = [];
  finalizers.forEach((finalizer: unknown, index) => {
    if (typeof finalizer !== 'string') {
      errors.push(fieldErrors.invalid(`${field}[${index}]`, finalizer, 'must be a string'));
      return;
    }
    for (const message of qualifiedNameErrors(finalizer)) errors.push(fieldErrors.invalid(`${field}[${index}]`, finalizer, message));
  });
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errors.push(fieldErrors.invalid(field, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errors;
}

/** Rules for updates that every resource shares (apimachinery's ValidateObjectMetaUpdate). */
export function validateObjectMetaUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const oldFinalizers = old.metadata.finalizers ?? [];
  if (old.metadata.deletionTimestamp) {
    const added = (object.metadata.finalizers ?? []).filter((finalizer) => !oldFinalizers.includes(finalizer));
    if (added.length > 0) {
      const rendered = `[]string{${added.map((item) => JSON.stringify(item)).join(', ')}}`;
      errors.push(fieldErrors.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${rendered}`));
    }
  }
  return errors;
}
