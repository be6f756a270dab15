/**
 * core/v1 Event and events.k8s.io/v1 Event: one storage served in two versions, as in kube.
 * An Event created through one API is visible through the other with the fields renamed.
 */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { age, allVerbs, column, expectType, metadataFieldSelectors, text } from './common.js';
import { dns1123SubdomainErrors, qualifiedNameErrors } from './name-validation.js';
import type { ResourceDefinition, StoredObject, TableColumn } from './resource-definition.js';

export const eventStorageKey = '/events';

/** events.k8s.io/v1 field name -> core/v1 (storage) field name. */
const renamedFields: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(object: KubeObject, pairs: ReadonlyArray<readonly [string, string]>): KubeObject {
  const result: KubeObject = { metadata: object.metadata };
  const mapping = new Map(pairs);
  for (const [key, value] of Object.entries(object)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind') continue;
    result[mapping.get(key) ?? key] = value;
  }
  return result;
}

const toStorage = (event: KubeObject): KubeObject => rename(event, renamedFields);
const fromStorage = (event: StoredObject): KubeObject => rename(event as KubeObject, renamedFields.map(([external, stored]) => [stored, external] as const));

const involved = (event: StoredObject): Record<string, unknown> => (isPlainObject(event['involvedObject']) ? event['involvedObject'] : {});
const involvedField = (field: string) => (event: StoredObject): string => {
  const value = involved(event)[field];
  return value === undefined ? '' : String(value);
};

const involvedSelectors = (prefix: string): Record<string, (event: StoredObject) => string> =>
  Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((field) => [`${prefix}.${field}`, involvedField(field)]));

function checkTypes(event: KubeObject, kind: string, groupVersion: string): void {
  expectType(kind, groupVersion, 'Event.involvedObject', event['involvedObject'], 'object');
  expectType(kind, groupVersion, 'Event.count', event['count'], 'integer');
  expectType(kind, groupVersion, 'Event.series', event['series'], 'object');
  expectType(kind, groupVersion, 'Event.source', event['source'], 'object');
}

/** kube's legacy event validation, applied to events from both APIs. */
function validateLegacy(event: KubeObject, reportingField: string): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = text(involved(event)['namespace']);
  const hasEventTime = text(event['eventTime']) !== '';
  if (!hasEventTime) {
    if (involvedNamespace === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNamespace) {
      errors.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    }
    return errors;
  }
  if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') {
    errors.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
  }
  const reportingController = text(event['reportingComponent']);
  if (reportingController === '') errors.push(fieldErrors.required(reportingField));
  else for (const message of qualifiedNameErrors(reportingController)) errors.push(fieldErrors.invalid(reportingField, reportingController, message));
  const instance = text(event['reportingInstance']);
  if (instance === '') errors.push(fieldErrors.required('reportingInstance'));
  else if (instance.length > 128) errors.push(fieldErrors.invalid('reportingInstance', '', 'can have at most 128 characters'));
  const action = text(event['action']);
  if (action === '') errors.push(fieldErrors.required('action'));
  else if (action.length > 128) errors.push(fieldErrors.invalid('action', '', 'can have at most 128 characters'));
  const reason = text(event['reason']);
  if (reason === '') errors.push(fieldErrors.required('reason'));
  else if (reason.length > 128) errors.push(fieldErrors.invalid('reason', '', 'can have at most 128 characters'));
  if (text(event['message']).length > 1024) errors.push(fieldErrors.invalid('message', '', 'can have at most 1024 characters'));
  return errors;
}

/** The stricter create rules of events.k8s.io/v1. */
function validateEventsV1Create(event: KubeObject): FieldError[] {
  const errors = validateLegacy(event, 'reportingController');
  if (text(event['eventTime']) === '') errors.push(fieldErrors.required('eventTime'));
  const type = text(event['type']);
  if (type !== 'Normal' && type !== 'Warning') errors.push(fieldErrors.invalid('type', '', `has invalid value: ${type}`));
  if (event['firstTimestamp'] !== undefined) errors.push(fieldErrors.invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (event['lastTimestamp'] !== undefined) errors.push(fieldErrors.invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (event['count'] !== undefined && event['count'] !== 0) errors.push(fieldErrors.invalid('deprecatedCount', '', 'needs to be unset'));
  const source = isPlainObject(event['source']) ? event['source'] : {};
  if (text(source['component']) !== '' || text(source['host']) !== '') errors.push(fieldErrors.invalid('deprecatedSource', '', 'needs to be unset'));
  const series = event['series'];
  if (isPlainObject(series)) {
    if (typeof series['count'] !== 'number' || series['count'] < 2) errors.push(fieldErrors.invalid('series.count', series['count'] ?? 0, 'should be at least 2'));
    if (text(series['lastObservedTime']) === '') errors.push(fieldErrors.required('series.lastObservedTime'));
  }
  return errors;
}

const eventColumns: readonly TableColumn[] = [
  column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
  column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for this event being generated.'),
  column('Object', 'string', 'The object that this event is about.'),
  column('Subobject', 'string', 'The subobject that this event is about.', 1),
  column('Source', 'string', 'The component reporting this event.', 1),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded.', 1),
  column('Count', 'integer', 'The number of times this event has occurred.', 1),
  column('Name', 'string', 'Name of the event.', 1, 'name'),
];

/** Cells from the storage (core/v1) form, following kubectl's event printer. */
function eventCells(event: KubeObject, now: Date): unknown[] {
  const eventTime = text(event['eventTime']);
  const firstSeen = text(event['firstTimestamp']) !== '' ? age(event['firstTimestamp'], now) : eventTime !== '' ? age(eventTime, now) : '<unknown>';
  let lastSeen = text(event['lastTimestamp']) !== '' ? age(event['lastTimestamp'], now) : firstSeen;
  let count = typeof event['count'] === 'number' ? event['count'] : 0;
  const series = event['series'];
  if (isPlainObject(series)) {
    lastSeen = age(series['lastObservedTime'], now);
    count = typeof series['count'] === 'number' ? series['count'] : count;
  } else if (count === 0) {
    count = 1;
  }
  const target = involved(event);
  const kind = text(target['kind']).toLowerCase();
  const object = text(target['name']) !== '' ? `${kind}/${text(target['name'])}` : kind;
  const source = isPlainObject(event['source']) ? event['source'] : {};
  const component = text(source['component']) || text(event['reportingComponent']);
  const host = text(source['host']) || text(event['reportingInstance']);
  const sourceText = [component, host].filter((part) => part !== '').join(', ');
  return [lastSeen, text(event['type']), text(event['reason']), object, text(target['fieldPath']), sourceText, text(event['message']).trim(), firstSeen, count, event.metadata.name ?? ''];
}

const eventTimeFields = [
  { path: ['firstTimestamp'], precision: 'seconds' },
  { path: ['lastTimestamp'], precision: 'seconds' },
  { path: ['eventTime'], precision: 'microseconds' },
  { path: ['series', 'lastObservedTime'], precision: 'microseconds' },
] as const;

export const coreEventResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  namespaced: true,
  shortNames: ['ev'],
  verbs: allVerbs,
  hasStatus: false,
  storageKey: eventStorageKey,
  allowCreateOnUpdate: true,
  validateName: dns1123SubdomainErrors,
  fieldSelectors: {
    ...metadataFieldSelectors(true),
    ...involvedSelectors('involvedObject'),
    reason: (event) => text(event['reason']),
    reportingComponent: (event) => text(event['reportingComponent']),
    source: (event) => (isPlainObject(event['source']) ? text(event['source']['component']) : ''),
    type: (event) => text(event['type']),
  },
  patchSchema: objectPatchSchema(),
  timeFields: eventTimeFields,
  prepareForCreate: (event) => checkTypes(event, 'Event', 'v1'),
  prepareForUpdate: (event) => checkTypes(event, 'Event', 'v1'),
  validate: (event) => validateLegacy(event, 'reportingComponent'),
  table: { columns: eventColumns, cells: eventCells },
};

export const eventsV1EventResource: ResourceDefinition = {
  ...coreEventResource,
  group: 'events.k8s.io',
  fieldSelectors: {
    ...metadataFieldSelectors(true),
    ...involvedSelectors('regarding'),
    reason: (event) => text(event['reason']),
    reportingController: (event) => text(event['reportingComponent']),
    type: (event) => text(event['type']),
  },
  conversion: { toStorage, fromStorage },
  prepareForCreate: (event) => checkTypes(event, 'Event', 'events.k8s.io/v1'),
  prepareForUpdate: (event) => checkTypes(event, 'Event', 'events.k8s.io/v1'),
  validate: undefined,
  // events.k8s.io/v1 validates creates more strictly than updates.
  validateCreate: validateEventsV1Create,
  validateUpdate: (event) => validateLegacy(event, 'reportingController'),
  table: { columns: eventColumns, cells: (event, now) => eventCells(toStorage(event), now) },
};
