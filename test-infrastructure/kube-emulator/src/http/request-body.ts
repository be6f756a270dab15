/** Reading and decoding request bodies (JSON, or YAML for create/update), with kube's size limit. */
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { statusErrors } from '../api/status-error.js';
import { decodeKubeProtobuf } from '../protobuf/decode-kube-protobuf.js';
import { ProtobufDecodeError } from '../protobuf/wire-reader.js';

export const maxRequestBodyBytes = 3 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
  return (await readBodyBytes(request)).toString('utf8');
}

export async function readBodyBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxRequestBodyBytes) throw statusErrors.requestEntityTooLarge(maxRequestBodyBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function mediaType(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw statusErrors.badRequest('the body of the request was empty');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw statusErrors.badRequest(`couldn't get version/kind; json parse error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A create/update body: `application/json` (default), `application/yaml`, or — for the kinds
 * kubectl's generators send that way — `application/vnd.kubernetes.protobuf`.
 */
export function parseObjectBody(request: IncomingMessage, bytes: Buffer): unknown {
  const type = mediaType(request);
  if (type === 'application/vnd.kubernetes.protobuf') {
    try {
      return decodeKubeProtobuf(bytes);
    } catch (error) {
      if (error instanceof ProtobufDecodeError) {
        throw statusErrors.unsupportedMediaType(`kube-emulator cannot decode this protobuf body (${error.message}); send application/json instead`);
      }
      throw error;
    }
  }
  const text = bytes.toString('utf8');
  if (type === '' || type === 'application/json' || type === '*/*') return parseJsonBody(text);
  if (type === 'application/yaml') {
    try {
      return parseYaml(text) as unknown;
    } catch (error) {
      throw statusErrors.badRequest(`error converting YAML to JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw statusErrors.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
}
