import { readFile, stat } from 'node:fs/promises';
import { errorMessage } from '../util/error-message.js';
import { CloudConfigError } from './cloud-config-error.js';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Largest cloud config read: real ones are a few kilobytes; a bigger file is a wrong path (a
 * disk image, a log) and parsing it would take seconds and gigabytes before failing.
 */
export const MAX_CLOUD_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads the `--cloud-config` file as UTF-8 text, dropping one leading byte order mark (upstream
 * gcfg does the same for files written on Windows). A missing or unreadable file is a
 * `CloudConfigError` naming the file.
 */
export async function readCloudConfigFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    const { size } = await stat(path);
    if (size > MAX_CLOUD_CONFIG_BYTES) {
      throw new CloudConfigError({ fileName: path, message: `cloud config file is ${size} bytes, more than the ${MAX_CLOUD_CONFIG_BYTES} bytes a cloud config can be` });
    }
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof CloudConfigError) throw error;
    throw new CloudConfigError({ fileName: path, message: `cannot read cloud config file: ${describeFileError(error)}` }, { cause: error });
  }
  const binaryAt = firstBinaryByte(bytes);
  if (binaryAt !== undefined) {
    // One problem instead of one per line of garbage; the bytes themselves are not echoed.
    throw new CloudConfigError({ fileName: path, line: lineAt(bytes, binaryAt), message: `not a text file: ${binaryAt.reason} at byte ${binaryAt.offset}` });
  }
  const text = bytes.toString('utf8');
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

/** The first NUL byte or byte sequence that is not UTF-8, if any. */
function firstBinaryByte(bytes: Buffer): { offset: number; reason: string } | undefined {
  const nul = bytes.indexOf(0);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(nul < 0 ? bytes : bytes.subarray(0, nul));
  } catch {
    return { offset: firstInvalidUtf8(bytes), reason: 'bytes that are not UTF-8' };
  }
  return nul < 0 ? undefined : { offset: nul, reason: 'a NUL byte' };
}

/** Offset of the first invalid UTF-8 sequence (the decoder above only says there is one). */
function firstInvalidUtf8(bytes: Buffer): number {
  let low = 0;
  let high = bytes.length;
  // The longest prefix that can start valid UTF-8: decoding with `stream` accepts a sequence cut at the end.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  // `low` may end inside the bad sequence's first bytes: back up to where it starts.
  let start = low;
  while (start > 0 && low - start < 3 && !decodesWhole(bytes.subarray(0, start))) start -= 1;
  return decodesWhole(bytes.subarray(0, start)) ? start : low;
}

function decodesWhole(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function lineAt(bytes: Buffer, offset: { offset: number }): number {
  let line = 1;
  for (let index = 0; index < offset.offset && index < bytes.length; index++) if (bytes[index] === 0x0a) line += 1;
  return line;
}

function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a file';
    default:
      return errorMessage(error);
  }
}
