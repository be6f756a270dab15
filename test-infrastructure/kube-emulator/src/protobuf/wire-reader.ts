/** Protocol Buffers wire format: fields of a message as (number, wire type, value). */

export type WireField =
  | { number: number; wireType: 0; value: bigint }
  | { number: number; wireType: 1; value: Buffer }
  | { number: number; wireType: 2; value: Buffer }
  | { number: number; wireType: 5; value: Buffer };

export class ProtobufDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufDecodeError';
  }
}

function readVarint(buffer: Buffer, start: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let index = start; index < buffer.length && shift < 70n; index++) {
    const byte = buffer[index] ?? 0;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: index + 1 };
    shift += 7n;
  }
  throw new ProtobufDecodeError('truncated or oversized varint');
}

export function readFields(buffer: Buffer): WireField[] {
  const fields: WireField[] = [];
  let position = 0;
  while (position < buffer.length) {
    const key = readVarint(buffer, position);
    position = key.next;
    const number = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (number === 0) throw new ProtobufDecodeError('field number 0');
    switch (wireType) {
      case 0: {
        const varint = readVarint(buffer, position);
        position = varint.next;
        fields.push({ number, wireType, value: varint.value });
        break;
      }
      case 1:
      case 5: {
        const size = wireType === 1 ? 8 : 4;
        if (position + size > buffer.length) throw new ProtobufDecodeError('truncated fixed-width field');
        fields.push({ number, wireType, value: buffer.subarray(position, position + size) });
        position += size;
        break;
      }
      case 2: {
        const length = readVarint(buffer, position);
        position = length.next;
        const end = position + Number(length.value);
        if (end > buffer.length) throw new ProtobufDecodeError('truncated length-delimited field');
        fields.push({ number, wireType, value: buffer.subarray(position, end) });
        position = end;
        break;
      }
      default:
        throw new ProtobufDecodeError(`unsupported wire type ${wireType}`);
    }
  }
  return fields;
}
