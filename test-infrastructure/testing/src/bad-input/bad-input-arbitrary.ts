/**
 * Bad inputs for a config file format, built from valid documents of that format: truncated,
 * binary, huge, duplicated-key, wrong-type and random. Every case is a string (what a parser
 * gets after the file is read) with the kind of damage, so a failure names what broke it.
 */
import fc from 'fast-check';

export type BadInputKind = 'truncated' | 'binary' | 'huge' | 'duplicated-key' | 'wrong-type' | 'random' | 'spliced';

export interface BadInput {
  kind: BadInputKind;
  text: string;
}

export interface BadInputFormat {
  /** Valid documents to damage (a handful that cover the format's sections and keys). */
  validDocuments: readonly string[];
  /** Characters that mean something in the format (brackets, quotes, separators). */
  syntaxCharacters: string;
  /** Values of the wrong type for a key of any type. Defaults to {@link WRONG_TYPE_VALUES}. */
  wrongTypeValues?: readonly string[];
  /** Whole documents worth trying as they are (e.g. YAML alias bombs). */
  extraDocuments?: readonly string[];
}

/** Values that are wrong for some key of every type, and a few that break quoting. */
export const WRONG_TYPE_VALUES: readonly string[] = [
  '',
  '-1',
  '0x',
  '0xZZ',
  '99999999999999999999999999',
  '1e400',
  'NaN',
  'maybe',
  'yes please',
  '"unterminated',
  "'unterminated",
  '[1, 2',
  '[1, 2]',
  '{a: 1}',
  '{"a": [}',
  'null',
  '~',
  '!!binary AAAA',
  '!!js/function "x"',
  '&anchor *anchor',
  '*undefinedAlias',
  '\\',
  '\\q',
  '%00',
  '\u0000',
  '\u202e\u0007',
  'http://[::1',
  '://',
  '${HOME}',
  'a'.repeat(5000),
];

/** A billion-laughs style alias bomb: small text, exponential if aliases are expanded. */
export const YAML_ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  '',
].join('\n');

const lines = (text: string): string[] => text.split('\n');

/** The valid document with line `index` replaced by the key part of it and a wrong value. */
function withWrongValue(document: string, lineIndex: number, value: string): string {
  const all = lines(document);
  const index = lineIndex % all.length;
  const line = all[index] ?? '';
  const separator = /^(\s*[^=:\s][^=:]*?\s*)([=:])\s*/.exec(line);
  all[index] = separator === null ? `${line} ${value}` : `${separator[1]}${separator[2]} ${value}`;
  return all.join('\n');
}

function withDuplicatedLine(document: string, lineIndex: number, copies: number): string {
  const all = lines(document);
  const index = lineIndex % all.length;
  const copied = Array.from({ length: copies }, () => all[index] ?? '');
  return [...all.slice(0, index), ...copied, ...all.slice(index)].join('\n');
}

/**
 * The arbitrary of bad inputs for `format`. `hugeBytes` bounds the huge cases (default 256 KiB:
 * big enough to show quadratic behaviour, small enough for thousands of cases).
 */
export function badInputArbitrary(format: BadInputFormat, options: { hugeBytes?: number } = {}): fc.Arbitrary<BadInput> {
  return rawBadInputArbitrary(format, options).map(describable);
}

/** fast-check prints counterexamples with this: the kind, the length and the start, not 256 KiB of text. */
function describable(input: BadInput): BadInput {
  return Object.assign(input, {
    [fc.toStringMethod]: () => `${input.kind} input of ${input.text.length} characters: ${JSON.stringify(input.text.slice(0, 300))}${input.text.length > 300 ? '...' : ''}`,
  });
}

function rawBadInputArbitrary(format: BadInputFormat, options: { hugeBytes?: number }): fc.Arbitrary<BadInput> {
  const hugeBytes = options.hugeBytes ?? 256 * 1024;
  const document = fc.constantFrom(...format.validDocuments);
  const wrongValues = format.wrongTypeValues ?? WRONG_TYPE_VALUES;
  const syntax = fc.constantFrom(...format.syntaxCharacters.split(''), '\n', ' ', '\t', '\r', 'a', 'Z', '0', '-', '\u00e9', '\u{1F600}', '\u0000');
  const kinds: fc.Arbitrary<BadInput>[] = [
    fc.tuple(document, fc.double({ min: 0, max: 1, noNaN: true })).map(([text, fraction]) => ({ kind: 'truncated' as const, text: text.slice(0, Math.floor(text.length * fraction)) })),
    fc.tuple(document, fc.uint8Array({ minLength: 1, maxLength: 512 }), fc.nat()).map(([text, bytes, at]) => {
      const position = at % (text.length + 1);
      return { kind: 'binary' as const, text: text.slice(0, position) + Buffer.from(bytes).toString('utf8') + text.slice(position) };
    }),
    fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((bytes) => ({ kind: 'binary' as const, text: Buffer.from(bytes).toString('utf8') })),
    fc.tuple(document, fc.nat(), fc.constantFrom('value', 'line', 'lines')).map(([text, lineIndex, how]) => {
      if (how === 'value') return { kind: 'huge' as const, text: withWrongValue(text, lineIndex, 'x'.repeat(hugeBytes)) };
      if (how === 'line') return { kind: 'huge' as const, text: `${text}\n${'#'.repeat(hugeBytes)}\n` };
      const all = lines(text);
      const line = all[lineIndex % all.length] ?? '';
      return { kind: 'huge' as const, text: withDuplicatedLine(text, lineIndex, Math.max(1, Math.floor(hugeBytes / Math.max(1, line.length + 1)))) };
    }),
    fc.tuple(document, fc.nat(), fc.integer({ min: 1, max: 3 })).map(([text, lineIndex, copies]) => ({ kind: 'duplicated-key' as const, text: withDuplicatedLine(text, lineIndex, copies) })),
    fc.tuple(document, fc.nat(), fc.constantFrom(...wrongValues)).map(([text, lineIndex, value]) => ({ kind: 'wrong-type' as const, text: withWrongValue(text, lineIndex, value) })),
    fc.string({ unit: syntax, maxLength: 400 }).map((text) => ({ kind: 'random' as const, text })),
    fc.string({ unit: 'binary', maxLength: 400 }).map((text) => ({ kind: 'random' as const, text })),
    fc.tuple(document, document, fc.nat(), fc.nat()).map(([first, second, cut, from]) => ({
      kind: 'spliced' as const,
      text: first.slice(0, cut % (first.length + 1)) + second.slice(from % (second.length + 1)),
    })),
  ];
  if (format.extraDocuments !== undefined && format.extraDocuments.length > 0) {
    kinds.push(fc.constantFrom(...format.extraDocuments).map((text) => ({ kind: 'wrong-type' as const, text })));
  }
  return fc.oneof(...kinds);
}
