/**
 * The few DER (ASN.1 Distinguished Encoding Rules) building blocks an X.509 certificate needs.
 * Each function returns the complete TLV (tag, length, value) as bytes.
 */
export function derElement(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let remaining = length; remaining > 0; remaining = Math.floor(remaining / 256)) bytes.unshift(remaining % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export const derSequence = (...items: Uint8Array[]): Buffer => derElement(0x30, Buffer.concat(items));
export const derSet = (...items: Uint8Array[]): Buffer => derElement(0x31, Buffer.concat(items));
export const derUtf8String = (text: string): Buffer => derElement(0x0c, Buffer.from(text, 'utf8'));
export const derOctetString = (bytes: Uint8Array): Buffer => derElement(0x04, bytes);
export const derBoolean = (value: boolean): Buffer => derElement(0x01, Buffer.from([value ? 0xff : 0x00]));
/** `[n] EXPLICIT` wrapper. */
export const derExplicit = (tagNumber: number, content: Uint8Array): Buffer => derElement(0xa0 | tagNumber, content);

/** A non-negative INTEGER from big-endian magnitude bytes (a 0x00 is prepended when the high bit is set). */
export function derUnsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const trimmed = Buffer.from(bytes.subarray(start));
  return derElement(0x02, (trimmed[0] as number) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export const derSmallInteger = (value: number): Buffer => derUnsignedInteger(Buffer.from([value]));

/** BIT STRING with the given number of unused bits in the last byte. */
export const derBitString = (bytes: Uint8Array, unusedBits = 0): Buffer => derElement(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));

export function derObjectIdentifier(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = parts;
  const bytes: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk: number[] = [part & 0x7f];
    for (let remaining = Math.floor(part / 128); remaining > 0; remaining = Math.floor(remaining / 128)) chunk.unshift((remaining & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return derElement(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
export function derTime(date: Date): Buffer {
  const pad = (value: number) => String(value).padStart(2, '0');
  const rest = `${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
  const year = date.getUTCFullYear();
  if (year >= 1950 && year < 2050) return derElement(0x17, Buffer.from(`${pad(year % 100)}${rest}`, 'ascii'));
  return derElement(0x18, Buffer.from(`${String(year).padStart(4, '0')}${rest}`, 'ascii'));
}
