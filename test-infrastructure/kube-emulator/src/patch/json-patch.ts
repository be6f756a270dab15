/** RFC 6902 JSON Patch (add, remove, replace, move, copy, test) over plain JSON documents. */
import { cloneJson, deepEqual, isPlainObject, type JsonMap } from '../util/json.js';
import { PatchError } from './patch-error.js';

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

const operations = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Checks the document is a list of operations; throws PatchError('bad-request') otherwise. */
export function parseJsonPatch(document: unknown): JsonPatchOperation[] {
  if (!Array.isArray(document)) throw new PatchError('bad-request', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  return document.map((operation: unknown, index) => {
    if (!isPlainObject(operation)) throw new PatchError('bad-request', `json: cannot unmarshal ${typeof operation} into Go value of type jsonpatch.Operation (operation ${index})`);
    const op = operation['op'];
    if (typeof op !== 'string' || !operations.has(op)) throw new PatchError('unprocessable', `Unexpected kind: ${String(op)}`);
    if (typeof operation['path'] !== 'string') throw new PatchError('unprocessable', `operation ${index} (${op}) is missing path`);
    if ((op === 'move' || op === 'copy') && typeof operation['from'] !== 'string') throw new PatchError('unprocessable', `operation ${index} (${op}) is missing from`);
    if ((op === 'add' || op === 'replace' || op === 'test') && !('value' in operation)) throw new PatchError('unprocessable', `operation ${index} (${op}) is missing value`);
    return operation as unknown as JsonPatchOperation;
  });
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError('unprocessable', `JSON pointer must start with '/': ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

interface Location {
  container: JsonMap | unknown[];
  key: string;
}

function arrayIndex(key: string, length: number, allowEnd: boolean, pointer: string): number {
  if (allowEnd && key === '-') return length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new PatchError('unprocessable', `invalid array index ${JSON.stringify(key)} in ${pointer}`);
  const index = Number(key);
  if (index > length || (!allowEnd && index === length)) throw new PatchError('unprocessable', `index out of bounds: ${index} in ${pointer}`);
  return index;
}

/** Resolves the parent of the pointer's target. */
function locate(document: unknown, pointer: string, operation: string): Location {
  const segments = parsePointer(pointer);
  const key = segments.pop();
  if (key === undefined) throw new PatchError('unprocessable', `${operation} operation does not apply to the document root here`);
  let current: unknown = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      current = current[arrayIndex(segment, current.length, false, pointer)];
    } else if (isPlainObject(current) && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = current[segment];
    } else {
      throw new PatchError('unprocessable', `${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`);
    }
  }
  if (!Array.isArray(current) && !isPlainObject(current)) {
    throw new PatchError('unprocessable', `${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`);
  }
  return { container: current, key };
}

function read(document: unknown, pointer: string, operation: string): unknown {
  if (pointer === '') return document;
  const { container, key } = locate(document, pointer, operation);
  if (Array.isArray(container)) return container[arrayIndex(key, container.length, false, pointer)];
  if (!Object.prototype.hasOwnProperty.call(container, key)) {
    throw new PatchError('unprocessable', `${operation} operation does not apply: doc is missing key: ${pointer}`);
  }
  return container[key];
}

function add(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const { container, key } = locate(document, pointer, 'add');
  if (Array.isArray(container)) container.splice(arrayIndex(key, container.length, true, pointer), 0, value);
  else container[key] = value;
  return document;
}

function remove(document: unknown, pointer: string, operation = 'remove'): unknown {
  const { container, key } = locate(document, pointer, operation);
  if (Array.isArray(container)) {
    container.splice(arrayIndex(key, container.length, false, pointer), 1);
  } else {
    if (!Object.prototype.hasOwnProperty.call(container, key)) {
      throw new PatchError('unprocessable', `${operation} operation does not apply: doc is missing key: ${pointer}`);
    }
    delete container[key];
  }
  return document;
}

/**
 * Applies the operations to a copy of `document` and returns the result. Throws PatchError:
 * 'unprocessable' when an operation does not apply or a `test` fails.
 */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  let result = cloneJson(document);
  for (const operation of parseJsonPatch(patch)) {
    switch (operation.op) {
      case 'add':
        result = add(result, operation.path, cloneJson(operation.value));
        break;
      case 'remove':
        result = remove(result, operation.path);
        break;
      case 'replace':
        read(result, operation.path, 'replace');
        if (operation.path === '') result = cloneJson(operation.value);
        else result = add(remove(result, operation.path, 'replace'), operation.path, cloneJson(operation.value));
        break;
      case 'move': {
        const from = operation.from ?? '';
        if (operation.path.startsWith(`${from}/`)) throw new PatchError('unprocessable', `move operation cannot move ${from} into its own child ${operation.path}`);
        const value = read(result, from, 'move');
        result = add(remove(result, from, 'move'), operation.path, value);
        break;
      }
      case 'copy':
        result = add(result, operation.path, cloneJson(read(result, operation.from ?? '', 'copy')));
        break;
      case 'test': {
        let actual: unknown;
        try {
          actual = read(result, operation.path, 'test');
        } catch {
          actual = undefined;
        }
        const expected = operation.value;
        if (!deepEqual(actual, expected) && !(actual === undefined && expected === null)) {
          throw new PatchError('unprocessable', `testing value ${operation.path} failed: test failed`);
        }
        break;
      }
    }
  }
  return result;
}
