/**
 * Decodes a `application/vnd.kubernetes.protobuf` request body (the "k8s\0" envelope around a
 * runtime.Unknown) into the JSON form, for the kinds in message-schemas.ts. Zero values are left
 * out, as the JSON encoding's omitempty does. An unknown field is an error rather than data loss.
 */
import { formatTime } from '../util/time.js';
import { protobufSchemas, type FieldSpec, type MessageSchema } from './message-schemas.js';
import { ProtobufDecodeError, readFields, type WireField } from './wire-reader.js';

const envelopeMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function expectWireType(field: WireField, wireType: number, context: string): void {
  if (field.wireType !== wireType) throw new ProtobufDecodeError(`${context}: field ${field.number} has wire type ${field.wireType}, expected ${wireType}`);
}

function asInteger(field: WireField, context: string): number {
  expectWireType(field, 0, context);
  return Number(BigInt.asIntN(64, field.value as bigint));
}

function asString(field: WireField, context: string): string {
  expectWireType(field, 2, context);
  return (field.value as Buffer).toString('utf8');
}

function decodeTime(buffer: Buffer): string | undefined {
  let seconds = 0;
  for (const field of readFields(buffer)) if (field.number === 1) seconds = asInteger(field, 'Time');
  return seconds === 0 ? undefined : formatTime(new Date(seconds * 1000));
}

function decodeIntOrString(buffer: Buffer): number | string | undefined {
  let type = 0;
  let intValue = 0;
  let stringValue = '';
  for (const field of readFields(buffer)) {
    if (field.number === 1) type = asInteger(field, 'IntOrString');
    else if (field.number === 2) intValue = asInteger(field, 'IntOrString');
    else if (field.number === 3) stringValue = asString(field, 'IntOrString');
  }
  if (type === 1) return stringValue === '' ? undefined : stringValue;
  return intValue === 0 ? undefined : intValue;
}

function decodeMapEntry(buffer: Buffer, valueKind: 'string' | 'bytes'): [string, string] {
  let key = '';
  let value = '';
  for (const field of readFields(buffer)) {
    if (field.number === 1) key = asString(field, 'map key');
    else if (field.number === 2) {
      expectWireType(field, 2, 'map value');
      value = valueKind === 'bytes' ? (field.value as Buffer).toString('base64') : (field.value as Buffer).toString('utf8');
    }
  }
  return [key, value];
}

function decodeValue(field: WireField, spec: FieldSpec, context: string): unknown {
  const kind = spec.kind;
  if (typeof kind === 'object' && 'map' in kind) {
    expectWireType(field, 2, context);
    return decodeMapEntry(field.value as Buffer, kind.map);
  }
  if (typeof kind === 'object') {
    expectWireType(field, 2, context);
    return decodeMessage(field.value as Buffer, kind);
  }
  switch (kind) {
    case 'string':
      return asString(field, context);
    case 'bytes':
      expectWireType(field, 2, context);
      return (field.value as Buffer).toString('base64');
    case 'int':
      return asInteger(field, context);
    case 'bool':
      return asInteger(field, context) !== 0;
    case 'time':
      expectWireType(field, 2, context);
      return decodeTime(field.value as Buffer);
    case 'intOrString':
      expectWireType(field, 2, context);
      return decodeIntOrString(field.value as Buffer);
  }
}

const isZero = (value: unknown): boolean =>
  value === undefined || value === '' || value === 0 || value === false || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

export function decodeMessage(buffer: Buffer, schema: MessageSchema): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of readFields(buffer)) {
    const spec = schema.fields[field.number];
    if (!spec) {
      if (schema.ignored?.includes(field.number)) continue;
      throw new ProtobufDecodeError(`field ${field.number} of ${schema.name} is not supported`);
    }
    const value = decodeValue(field, spec, `${schema.name}.${spec.name}`);
    const kind = spec.kind;
    if (typeof kind === 'object' && 'map' in kind) {
      const [key, entry] = value as [string, string];
      const map = (result[spec.name] ??= {}) as Record<string, string>;
      map[key] = entry;
    } else if (spec.repeated) {
      ((result[spec.name] ??= []) as unknown[]).push(value);
    } else if (!isZero(value)) {
      result[spec.name] = value;
    }
  }
  return result;
}

/** Returns the object in JSON form, with apiVersion and kind from the envelope. */
export function decodeKubeProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < envelopeMagic.length || !body.subarray(0, envelopeMagic.length).equals(envelopeMagic)) {
    throw new ProtobufDecodeError('the body does not start with the Kubernetes protobuf envelope');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Buffer = Buffer.alloc(0);
  for (const field of readFields(body.subarray(envelopeMagic.length))) {
    if (field.number === 1) {
      expectWireType(field, 2, 'Unknown.typeMeta');
      for (const typeField of readFields(field.value as Buffer)) {
        if (typeField.number === 1) apiVersion = asString(typeField, 'TypeMeta.apiVersion');
        else if (typeField.number === 2) kind = asString(typeField, 'TypeMeta.kind');
      }
    } else if (field.number === 2) {
      expectWireType(field, 2, 'Unknown.raw');
      raw = field.value as Buffer;
    } else if (field.number === 3 && asString(field, 'Unknown.contentEncoding') !== '') {
      throw new ProtobufDecodeError('content encodings are not supported');
    }
  }
  const schema = protobufSchemas[`${apiVersion}/${kind}`];
  if (!schema) throw new ProtobufDecodeError(`protobuf bodies of ${apiVersion}/${kind} are not supported`);
  return { apiVersion, kind, ...decodeMessage(raw, schema) };
}
