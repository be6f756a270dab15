/**
 * Converts one flag value from text with Go/pflag rules. Returns the value or the reason it is
 * invalid (the registry turns that into a `FlagError` naming the flag and the value).
 */
import type { FlagDefinition, FlagValue } from './flag-definition.js';
import { parseGoDuration } from '../../util/go-duration.js';
import { parseGoBool } from '../../util/parse-go-bool.js';

export type ParsedFlagValue = { value: FlagValue } | { problem: string };

export function parseFlagValue(definition: FlagDefinition, text: string): ParsedFlagValue {
  switch (definition.type) {
    case 'string':
      return { value: text };
    case 'bool': {
      const value = parseGoBool(text);
      return value === undefined ? { problem: `strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax` } : { value };
    }
    case 'int': {
      const value = parseGoInt(text);
      if (value === undefined) return { problem: `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax` };
      if ((definition.minimum !== undefined && value < definition.minimum) || (definition.maximum !== undefined && value > definition.maximum)) {
        return { problem: `strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range` };
      }
      return { value };
    }
    case 'float': {
      const value = parseGoFloat(text);
      return value === undefined ? { problem: `strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax` } : { value };
    }
    case 'duration':
      try {
        return { value: parseGoDuration(text) };
      } catch (error) {
        return { problem: (error as Error).message };
      }
    case 'stringArray':
      return { value: [text] };
    case 'stringList':
      try {
        return { value: splitCommaSeparated(text) };
      } catch (error) {
        return { problem: (error as Error).message };
      }
  }
}

/** Go `strconv.ParseInt(text, 0, 64)`: decimal, `0x` hex, `0o`/leading-`0` octal, `0b` binary; `_` only after a base prefix. */
export function parseGoInt(text: string): number | undefined {
  const match = /^([+-]?)(.*)$/s.exec(text);
  const sign = match?.[1] === '-' ? -1 : 1;
  const body = match?.[2] ?? '';
  let digits: string;
  let radix: number;
  if (/^0[xX]/.test(body)) [digits, radix] = [body.slice(2), 16];
  else if (/^0[oO]/.test(body)) [digits, radix] = [body.slice(2), 8];
  else if (/^0[bB]/.test(body)) [digits, radix] = [body.slice(2), 2];
  else if (/^0[0-9_]/.test(body)) [digits, radix] = [body.slice(1), 8];
  else [digits, radix] = [body, 10];
  if (radix !== 10) {
    if (/^_|__|_$/.test(digits)) return undefined;
    digits = digits.replace(/_/g, '');
  }
  const allowed = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[radix as 2 | 8 | 10 | 16];
  if (!allowed.test(digits)) return undefined;
  const value = Number.parseInt(digits, radix);
  return Number.isSafeInteger(value) ? sign * value : undefined;
}

/** Go `strconv.ParseFloat` for finite decimal numbers (what kube flags use). */
export function parseGoFloat(text: string): number | undefined {
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * pflag `strings`: one CSV record (encoding/csv), so `a,b` gives two entries and `"a,b"` one.
 * An empty value gives an empty list.
 */
export function splitCommaSeparated(text: string): string[] {
  if (text === '') return [];
  const fields: string[] = [];
  let index = 0;
  for (;;) {
    let field = '';
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) throw new Error(`parse error: extraneous or missing " in quoted-field`);
        const character = text[index] as string;
        if (character === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        field += character;
        index += 1;
      }
      if (index < text.length && text[index] !== ',') throw new Error(`parse error: extraneous or missing " in quoted-field`);
    } else {
      while (index < text.length && text[index] !== ',') {
        if (text[index] === '"') throw new Error(`parse error: bare " in non-quoted-field`);
        field += text[index];
        index += 1;
      }
    }
    fields.push(field);
    if (index >= text.length) return fields;
    index += 1; // the comma
    if (index === text.length) {
      fields.push('');
      return fields;
    }
  }
}
