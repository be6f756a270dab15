/** RFC 6902 JSON patch on wire-form JSON values. */
import { jsonEqual, type JsonObject, type JsonValue } from '@ccm/core/kube';
import { PatchError } from './patch-error.js';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T extends JsonValue>(value: T): T => structuredClone(value);

const deepEqual = jsonEqual;

interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: JsonValue;
}

/** RFC 6902: applies the operations in order, atomically (all or nothing). */
export function applyJsonPatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!Array.isArray(patch)) throw new PatchError('JSON patch must be a list of operations');
  let document = clone(target);
  for (const raw of patch) {
    const operation = parseOperation(raw);
    switch (operation.op) {
      case 'add':
        document = addAt(document, parsePointer(operation.path), requireValue(operation));
        break;
      case 'remove':
        document = removeAt(document, parsePointer(operation.path)).document;
        break;
      case 'replace': {
        const tokens = parsePointer(operation.path);
        readAt(document, tokens, operation.path);
        document = tokens.length === 0 ? clone(requireValue(operation)) : addAt(removeAt(document, tokens).document, tokens, requireValue(operation));
        break;
      }
      case 'move': {
        const from = parsePointer(requireFrom(operation));
        const removed = removeAt(document, from);
        document = addAt(removed.document, parsePointer(operation.path), removed.value);
        break;
      }
      case 'copy': {
        const value = readAt(document, parsePointer(requireFrom(operation)), requireFrom(operation));
        document = addAt(document, parsePointer(operation.path), clone(value));
        break;
      }
      case 'test': {
        const actual = readAt(document, parsePointer(operation.path), operation.path);
        if (!deepEqual(actual, requireValue(operation))) throw new PatchError(`test operation failed at ${operation.path}`);
        break;
      }
    }
  }
  return document;
}

function parseOperation(raw: JsonValue): JsonPatchOperation {
  if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
    throw new PatchError('each JSON patch operation needs string "op" and "path"');
  }
  if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(raw.op)) throw new PatchError(`unknown JSON patch op ${raw.op}`);
  const operation: JsonPatchOperation = { op: raw.op as JsonPatchOperation['op'], path: raw.path };
  if (typeof raw.from === 'string') operation.from = raw.from;
  if ('value' in raw) operation.value = raw.value as JsonValue;
  return operation;
}

function requireValue(operation: JsonPatchOperation): JsonValue {
  if (operation.value === undefined) throw new PatchError(`${operation.op} at ${operation.path} needs a value`);
  return operation.value;
}

function requireFrom(operation: JsonPatchOperation): string {
  if (operation.from === undefined) throw new PatchError(`${operation.op} at ${operation.path} needs "from"`);
  return operation.from;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(array: JsonValue[], token: string, allowEnd: boolean, pointer: string): number {
  if (allowEnd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`invalid array index ${token} in ${pointer}`);
  const index = Number(token);
  if (index > array.length || (!allowEnd && index === array.length)) throw new PatchError(`array index ${token} out of range in ${pointer}`);
  return index;
}

function readAt(document: JsonValue, tokens: string[], pointer: string): JsonValue {
  let current: JsonValue = document;
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[arrayIndex(current, token, false, pointer)] as JsonValue;
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token] as JsonValue;
    else throw new PatchError(`path ${pointer} does not exist`);
  }
  return current;
}

function parentOf(document: JsonValue, tokens: string[]): { parent: JsonValue; last: string } {
  const pointer = '/' + tokens.join('/');
  const parent = readAt(document, tokens.slice(0, -1), pointer);
  return { parent, last: tokens[tokens.length - 1] as string };
}

function addAt(document: JsonValue, tokens: string[], value: JsonValue): JsonValue {
  if (tokens.length === 0) return clone(value);
  const result = clone(document);
  const { parent, last } = parentOf(result, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, '/' + tokens.join('/')), 0, clone(value));
  else if (isObject(parent)) parent[last] = clone(value);
  else throw new PatchError(`cannot add below a scalar at /${tokens.join('/')}`);
  return result;
}

function removeAt(document: JsonValue, tokens: string[]): { document: JsonValue; value: JsonValue } {
  if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
  const result = clone(document);
  const pointer = '/' + tokens.join('/');
  const { parent, last } = parentOf(result, tokens);
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, last, false, pointer), 1);
    return { document: result, value: value as JsonValue };
  }
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last] as JsonValue;
    delete parent[last];
    return { document: result, value };
  }
  throw new PatchError(`path ${pointer} does not exist`);
}
