/**
 * Conversion between client-node's typed models (`V1Node`, with `Date` timestamps) and the JSON
 * an API server stores and sends (the "wire" form). Uses client-node's generated serializer, so
 * in-memory fakes return exactly what the real adapters return.
 */
// client-node 2.x has no exports map; the generated serializer is not re-exported from the index.
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import type { JsonObject, JsonValue } from './json-value.js';

/** client-node model names used with the wire helpers. */
export type WireModel = 'V1Node' | 'V1Service' | 'V1Secret' | 'V1Lease' | 'CoreV1Event';

/** Typed model -> wire JSON (Dates become RFC 3339 strings, field names become JSON names). */
export function toWire(object: unknown, model: WireModel): JsonObject {
  const serialized: unknown = ObjectSerializer.serialize(object, model, '');
  return JSON.parse(JSON.stringify(serialized ?? {})) as JsonObject;
}

/** Wire JSON -> typed model (a fresh object; callers may mutate it). */
export function fromWire<T>(json: JsonValue, model: WireModel): T {
  return ObjectSerializer.deserialize(structuredClone(json), model, '') as T;
}

/** Any value (e.g. a patch body holding Dates) -> plain JSON, exactly as it goes over HTTP. */
export function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}
