/** Query parameters of API requests (list/watch options, write options, delete options). */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import { statusErrors } from '../api/status-error.js';
import { isPlainObject } from '../util/json.js';
import type { DeleteOptions } from '../store/delete-operations.js';
import type { IncludeObject } from './representation.js';

export function booleanParameter(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw statusErrors.badRequest(`invalid value for ${name}: ${JSON.stringify(value)}: must be a boolean`);
}

function integerParameter(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw statusErrors.badRequest(`invalid value for ${name}: ${JSON.stringify(value)}: must be an integer`);
  return Number(value);
}

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  timeoutSeconds?: number;
  sendInitialEvents?: boolean;
  includeObject: IncludeObject;
}

const includeObjectValues: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

export function parseListQuery(query: URLSearchParams): ListQuery {
  const parsed: ListQuery = {
    watch: booleanParameter(query, 'watch'),
    allowWatchBookmarks: booleanParameter(query, 'allowWatchBookmarks'),
    includeObject: 'Metadata',
  };
  const text = (name: string): string | undefined => query.get(name) ?? undefined;
  parsed.labelSelector = text('labelSelector');
  parsed.fieldSelector = text('fieldSelector');
  parsed.continueToken = text('continue');
  parsed.resourceVersion = text('resourceVersion');
  parsed.resourceVersionMatch = text('resourceVersionMatch');
  const limit = integerParameter(query, 'limit');
  if (limit !== undefined) parsed.limit = limit;
  const timeout = integerParameter(query, 'timeoutSeconds');
  if (timeout !== undefined) parsed.timeoutSeconds = timeout;
  if (query.has('sendInitialEvents')) parsed.sendInitialEvents = booleanParameter(query, 'sendInitialEvents');
  const includeObject = query.get('includeObject');
  if (includeObject) {
    if (!includeObjectValues.includes(includeObject as IncludeObject)) throw statusErrors.badRequest(`includeObject: Unsupported value: ${JSON.stringify(includeObject)}`);
    parsed.includeObject = includeObject as IncludeObject;
  }
  return parsed;
}

/** Checks dryRun/fieldManager/fieldValidation like the apiserver's Create/Update/PatchOptions validation. */
export function parseWriteQuery(query: URLSearchParams, optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): { dryRun: boolean } {
  const errors: FieldError[] = [];
  const dryRun = query.getAll('dryRun');
  for (const value of dryRun) if (value !== 'All') errors.push(fieldErrors.notSupported('dryRun', value, ['All']));
  const fieldManager = query.get('fieldManager');
  if (fieldManager !== null && fieldManager.length > 128) errors.push(fieldErrors.tooLong('fieldManager', 128));
  const validation = query.get('fieldValidation');
  if (validation !== null && validation !== '' && !['ignore', 'warn', 'strict'].includes(validation.toLowerCase())) {
    errors.push(fieldErrors.notSupported('fieldValidation', validation, ['Ignore', 'Strict', 'Warn']));
  }
  if (query.has('force') && optionsKind !== 'PatchOptions') errors.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  if (errors.length > 0) throw statusErrors.invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', errors);
  return { dryRun: dryRun.length > 0 };
}

const propagationPolicies = ['Background', 'Foreground', 'Orphan'];

/** DeleteOptions from the query string and the (optional) JSON body. */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const options = isPlainObject(body) ? body : {};
  const errors: FieldError[] = [];
  const dryRunValues = [...query.getAll('dryRun'), ...(Array.isArray(options['dryRun']) ? options['dryRun'].map(String) : [])];
  for (const value of dryRunValues) if (value !== 'All') errors.push(fieldErrors.notSupported('dryRun', value, ['All']));
  const policy = query.get('propagationPolicy') ?? options['propagationPolicy'];
  if (policy !== undefined && policy !== null && policy !== '' && !propagationPolicies.includes(String(policy))) {
    errors.push(fieldErrors.notSupported('propagationPolicy', policy, propagationPolicies));
  }
  const grace = query.get('gracePeriodSeconds') ?? options['gracePeriodSeconds'];
  if (grace !== undefined && grace !== null && grace !== '' && !/^-?\d+$/.test(String(grace))) {
    throw statusErrors.badRequest(`invalid value for gracePeriodSeconds: ${JSON.stringify(grace)}`);
  }
  if (errors.length > 0) throw statusErrors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
  const result: DeleteOptions = { dryRun: dryRunValues.length > 0 };
  const preconditions = options['preconditions'];
  if (isPlainObject(preconditions)) {
    result.preconditions = {};
    if (typeof preconditions['uid'] === 'string') result.preconditions.uid = preconditions['uid'];
    if (typeof preconditions['resourceVersion'] === 'string') result.preconditions.resourceVersion = preconditions['resourceVersion'];
  }
  return result;
}
