/**
 * The redaction safety net: values under keys that name secrets (password, secret, token,
 * credentials, private keys, ...) are replaced before anything reaches the log, at any depth.
 * Errors become their message, so no stack traces or attached request objects leak.
 */
import { isSecretName } from '../util/secret-names.js';
import type { LogFields } from './logger.js';

export const REDACTED = '[REDACTED]';

const MAX_DEPTH = 6;

export function redactLogFields(fields: LogFields): LogFields {
  return redactValue(fields, 0, new WeakSet()) as LogFields;
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value instanceof Error) return describeError(value);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Map) return redactValue(Object.fromEntries(value), depth, seen);
    if (value instanceof Set) return redactValue([...value], depth, seen);
    const result: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      result[key] = isSecretName(key) && entry !== undefined && entry !== null && entry !== '' ? REDACTED : redactValue(entry, depth + 1, seen);
    }
    return result;
  } finally {
    seen.delete(value);
  }
}

function describeError(error: Error): string {
  return error.message === '' ? error.name : error.message;
}
