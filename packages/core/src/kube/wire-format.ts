/**
 * Conversion between client-node's typed models (`V1Node`, with `Date` timestamps) and the JSON
 * an API server stores and sends (the "wire" form), so in-memory fakes return exactly what the
 * real adapters return.
 *
 * Driven by the attribute maps every generated client-node model publishes
 * (`V1Node.getAttributeTypeMap()`: property name, JSON name, type, format), with the rules of
 * client-node's own generated serializer, which the package does not export: `Date` properties
 * become RFC 3339 strings (`format: date` a calendar date), JSON names replace property names
 * (`_continue` <-> `continue`), arrays and string maps convert element by element, properties a
 * model does not declare are dropped on the way out, and types that are not models (`V1MicroTime`,
 * `IntOrString`, primitives) pass through unchanged.
 */
import * as clientNode from '@kubernetes/client-node';
import type { JsonObject, JsonValue } from './json-value.js';

/** client-node model names used with the wire helpers. */
export type WireModel = 'V1Node' | 'V1Service' | 'V1Secret' | 'V1ConfigMap' | 'V1Lease' | 'CoreV1Event';

interface AttributeType {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

interface ModelClass {
  new (): object;
  getAttributeTypeMap(): readonly AttributeType[];
}

const PRIMITIVE_TYPES = new Set(['string', 'boolean', 'double', 'integer', 'long', 'float', 'number', 'any']);
const NULLABLE_SUFFIX = ' | null';
const OPTIONAL_SUFFIX = ' | undefined';
const ARRAY_PREFIX = 'Array<';
const ARRAY_SUFFIX = '>';
const MAP_PREFIX = '{ [key: string]: ';
const MAP_SUFFIX = '; }';

const models = clientNode as unknown as Readonly<Record<string, unknown>>;

function modelClass(type: string): ModelClass | undefined {
  const candidate = models[type];
  if (typeof candidate !== 'function') return undefined;
  return typeof (candidate as Partial<ModelClass>).getAttributeTypeMap === 'function' ? (candidate as ModelClass) : undefined;
}

/** `2024-05-01` in local time, as client-node writes `format: date` values. */
function calendarDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** The element type of `Array<T>` or `{ [key: string]: T; }`, or the type without `| null` / `| undefined`. */
type Shape = { kind: 'plain'; type: string } | { kind: 'array'; element: string } | { kind: 'map'; element: string };

function shapeOf(type: string): Shape {
  if (type.endsWith(NULLABLE_SUFFIX)) return shapeOf(type.slice(0, -NULLABLE_SUFFIX.length));
  if (type.endsWith(OPTIONAL_SUFFIX)) return shapeOf(type.slice(0, -OPTIONAL_SUFFIX.length));
  if (type.startsWith(ARRAY_PREFIX)) return { kind: 'array', element: type.slice(ARRAY_PREFIX.length, -ARRAY_SUFFIX.length) };
  if (type.startsWith(MAP_PREFIX)) return { kind: 'map', element: type.slice(MAP_PREFIX.length, -MAP_SUFFIX.length) };
  return { kind: 'plain', type };
}

/**
 * What a type string means, worked out once per distinct type string (the shapes and attribute
 * maps are fixed): every informer event and every write answer goes through here, and parsing
 * the type strings and looking models up on the module namespace for each value cost more than
 * the conversion itself. The branches are exactly those of the rules above.
 */
type TypePlan =
  | { readonly kind: 'primitive' }
  | { readonly kind: 'array'; readonly element: string }
  | { readonly kind: 'map'; readonly element: string }
  | { readonly kind: 'date' }
  | { readonly kind: 'model'; readonly model: ModelClass; readonly attributes: readonly AttributeType[] }
  | { readonly kind: 'other' };

const plans = new Map<string, TypePlan>();

function planOf(type: string): TypePlan {
  let plan = plans.get(type);
  if (plan === undefined) {
    plan = computePlan(type);
    plans.set(type, plan);
  }
  return plan;
}

function computePlan(type: string): TypePlan {
  if (PRIMITIVE_TYPES.has(type.toLowerCase())) return { kind: 'primitive' };
  const shape = shapeOf(type);
  if (shape.kind === 'array') return { kind: 'array', element: shape.element };
  if (shape.kind === 'map') return { kind: 'map', element: shape.element };
  if (shape.type === 'Date') return { kind: 'date' };
  const model = modelClass(shape.type);
  return model === undefined ? { kind: 'other' } : { kind: 'model', model, attributes: model.getAttributeTypeMap() };
}

/** `map[key] = value` as an own property also for the key `__proto__` (as `Object.fromEntries` does). */
function setOwn(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

function serialize(data: unknown, type: string, format: string): unknown {
  if (data === undefined || data === null) return data;
  const plan = planOf(type);
  switch (plan.kind) {
    case 'primitive':
    case 'other':
      return data;
    case 'array':
      return (data as unknown[]).map((element) => serialize(element, plan.element, format));
    case 'map': {
      const map: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(data as object)) setOwn(map, key, serialize(value, plan.element, format));
      return map;
    }
    case 'date':
      if (!(data instanceof Date)) return data;
      return format === 'date' ? calendarDate(data) : data.toISOString();
    case 'model': {
      const source = data as Record<string, unknown>;
      const wire: Record<string, unknown> = {};
      for (const attribute of plan.attributes) wire[attribute.baseName] = serialize(source[attribute.name], attribute.type, attribute.format);
      return wire;
    }
  }
}

/** A value passed through unchanged, as a copy when it is an object (so the result shares nothing with the input). */
function copied(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? structuredClone(data) : data;
}

/** Builds fresh objects throughout: models, arrays and maps are rebuilt, anything else copied. */
function deserialize(data: unknown, type: string, format: string): unknown {
  if (data === undefined || data === null) return data;
  const plan = planOf(type);
  switch (plan.kind) {
    case 'primitive':
    case 'other':
      return copied(data);
    case 'array':
      return (data as unknown[]).map((element) => deserialize(element, plan.element, format));
    case 'map': {
      const map: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(data as object)) setOwn(map, key, deserialize(value, plan.element, format));
      return map;
    }
    case 'date':
      return new Date(data as string);
    case 'model': {
      const source = data as Record<string, unknown>;
      const typed = new plan.model() as Record<string, unknown>;
      for (const attribute of plan.attributes) {
        const value = deserialize(source[attribute.baseName], attribute.type, attribute.format);
        if (value !== undefined) typed[attribute.name] = value;
      }
      return typed;
    }
  }
}

/** Typed model -> wire JSON (Dates become RFC 3339 strings, field names become JSON names). */
export function toWire(object: unknown, model: WireModel): JsonObject {
  const serialized = serialize(object, model, '');
  return JSON.parse(JSON.stringify(serialized ?? {})) as JsonObject;
}

/**
 * Typed model -> the JSON text of its wire form, as client-node writes a request body
 * (`JSON.stringify` of the serialized model; no parse round trip).
 */
export function toWireJson(object: unknown, model: WireModel): string {
  return JSON.stringify(serialize(object, model, '') ?? {});
}

/**
 * Wire JSON -> typed model (a fresh object sharing nothing with `json`; callers may mutate it).
 * No up-front copy of the whole input: every informer event goes through here, and copying
 * each object first cost more than the conversion itself (a 5,000-node storm: ~3 s of the CCM's CPU).
 */
export function fromWire<T>(json: JsonValue, model: WireModel): T {
  return deserialize(json, model, '') as T;
}

/** Any value (e.g. a patch body holding Dates) -> plain JSON, exactly as it goes over HTTP. */
export function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}
