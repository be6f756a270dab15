import { describe, expect, it } from 'vitest';
import { decodeKubeProtobuf } from './decode-kube-protobuf.js';
import { ProtobufDecodeError } from './wire-reader.js';

// A minimal encoder to build test messages (field number + wire type + payload).
const varint = (value: number | bigint): Buffer => {
  const bytes: number[] = [];
  let remaining = BigInt.asUintN(64, BigInt(value));
  do {
    const byte = Number(remaining & 0x7fn);
    remaining >>= 7n;
    bytes.push(remaining > 0n ? byte | 0x80 : byte);
  } while (remaining > 0n);
  return Buffer.from(bytes);
};
const key = (number: number, wireType: number): Buffer => varint((number << 3) | wireType);
const integer = (number: number, value: number): Buffer => Buffer.concat([key(number, 0), varint(value)]);
const bytes = (number: number, payload: Buffer | string): Buffer => {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([key(number, 2), varint(data.length), data]);
};
const message = (...fields: Buffer[]): Buffer => Buffer.concat(fields);
const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
  Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), bytes(1, message(bytes(1, apiVersion), bytes(2, kind))), bytes(2, raw), bytes(3, ''), bytes(4, '')]);
const metadata = (name: string, ...extra: Buffer[]): Buffer => bytes(1, message(bytes(1, name), bytes(2, ''), integer(7, 0), bytes(8, message()), ...extra));

describe('decodeKubeProtobuf', () => {
  it('decodes a ConfigMap, dropping zero values and keeping empty map values', () => {
    const raw = message(metadata('settings', bytes(11, message(bytes(1, 'app'), bytes(2, ''))), bytes(14, 'example.com/hold')), bytes(2, message(bytes(1, 'a'), bytes(2, '1'))), integer(4, 0));
    expect(decodeKubeProtobuf(envelope('v1', 'ConfigMap', raw))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', labels: { app: '' }, finalizers: ['example.com/hold'] },
      data: { a: '1' },
    });
  });

  it('base64-encodes Secret bytes', () => {
    const raw = message(metadata('s'), bytes(2, message(bytes(1, 'password'), bytes(2, Buffer.from([0xff, 0x00])))), bytes(3, 'Opaque'));
    expect(decodeKubeProtobuf(envelope('v1', 'Secret', raw))).toMatchObject({ data: { password: '/wA=' }, type: 'Opaque' });
  });

  it('decodes Service ports with numeric and named target ports', () => {
    const port = (name: string, number: number, target: Buffer): Buffer => bytes(1, message(bytes(1, name), bytes(2, 'TCP'), integer(3, number), bytes(4, target), integer(5, 0)));
    const spec = message(port('http', 80, message(integer(1, 0), integer(2, 8080), bytes(3, ''))), port('web', 81, message(integer(1, 1), integer(2, 0), bytes(3, 'web'))), bytes(4, 'LoadBalancer'), integer(13, 0));
    expect(decodeKubeProtobuf(envelope('v1', 'Service', message(metadata('lb'), bytes(2, spec))))).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb' },
      spec: {
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: 'web', protocol: 'TCP', port: 81, targetPort: 'web' },
        ],
        type: 'LoadBalancer',
      },
    });
  });

  it('renders timestamps and negative integers', () => {
    const raw = message(bytes(1, message(bytes(1, 'ns'), bytes(8, message(integer(1, 1_700_000_000))), integer(10, -1))));
    expect(decodeKubeProtobuf(envelope('v1', 'Namespace', raw))).toMatchObject({ metadata: { name: 'ns', creationTimestamp: '2023-11-14T22:13:20Z', deletionGracePeriodSeconds: -1 } });
  });

  it('refuses unknown kinds, unknown fields and bodies without the envelope', () => {
    expect(() => decodeKubeProtobuf(envelope('apps/v1', 'Deployment', message()))).toThrow(ProtobufDecodeError);
    expect(() => decodeKubeProtobuf(envelope('v1', 'ConfigMap', message(bytes(99, 'x'))))).toThrow('field 99 of ConfigMap is not supported');
    expect(() => decodeKubeProtobuf(Buffer.from('{"kind":"ConfigMap"}'))).toThrow('envelope');
    expect(() => decodeKubeProtobuf(envelope('v1', 'ConfigMap', Buffer.from([0x0a, 0x05, 0x01])))).toThrow('truncated');
  });
});
