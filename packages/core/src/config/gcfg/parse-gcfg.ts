/**
 * A gcfg (git-config style INI) reader with the semantics of the Go gcfg package that cloud
 * providers use for `cloud.conf`:
 * - `[section]` and `[section "subsection"]`; section and variable names are case-insensitive
 *   identifiers (a letter, then letters, digits and `-`); subsections are case-sensitive quoted
 *   strings and cannot be empty;
 * - `;` and `#` start comments, also after a value, but not inside quotes;
 * - values: leading and trailing whitespace dropped, inner whitespace kept, `"..."` quotes may
 *   cover any part of a value, escapes `\"` `\\` `\n` `\t` `\b`, a `\` at the end of a line
 *   continues the value on the next line;
 * - a bare variable name (no `=`) is gcfg's "blank" value (`true` for booleans);
 * - repeated variables are all kept, in order (multi-valued variables);
 * - one leading UTF-8 byte order mark is ignored; CRLF line ends are accepted.
 * It never throws: every problem is collected with its line, and parsing resumes on the next line.
 * Problems name places, sections and variables, never the value of a secret-looking variable:
 * after an unterminated quoted value of one, the lines that do not start a statement are taken
 * as the rest of that value and reported without their text.
 */
import type { CloudConfigProblem } from '../cloud-config-error.js';
import { mayHoldSecret } from '../../util/secret-names.js';
import { GcfgDocument, type GcfgSection, type GcfgVariable } from './gcfg-document.js';

interface MutableSection {
  name: string;
  subsection: string | undefined;
  line: number;
  variables: GcfgVariable[];
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t', b: '\b' };

export function parseGcfg(text: string, fileName: string): GcfgDocument {
  return new GcfgParser(text, fileName).parse();
}

class GcfgParser {
  readonly #text: string;
  readonly #fileName: string;
  #position = 0;
  #line = 1;
  readonly #problems: CloudConfigProblem[] = [];
  readonly #sections: MutableSection[] = [];
  readonly #sectionsByKey = new Map<string, MutableSection>();
  #current: MutableSection | undefined;
  /** After a broken header, variables are checked but dropped (no cascade of problems). */
  #insideBrokenHeader = false;
  /** A secret-looking variable whose quoted value was left open: the next lines may be its rest. */
  #openSecret: { name: string; line: number } | undefined;

  constructor(text: string, fileName: string) {
    this.#text = text.startsWith('\uFEFF') ? text.slice(1) : text;
    this.#fileName = fileName;
  }

  parse(): GcfgDocument {
    for (;;) {
      this.#skipBlanks();
      const character = this.#peek();
      if (character === undefined) break;
      if (character === '\n') {
        this.#advance();
      } else if (character === ';' || character === '#') {
        this.#skipToEndOfLine();
      } else if (this.#openSecret !== undefined && !this.#startsStatement()) {
        const { name, line } = this.#openSecret;
        this.#problem(this.#line, `cannot parse this line, it may continue the unterminated quoted value of variable "${name}" on line ${line} (text withheld)`);
        if (this.#restOfLine().includes('"')) this.#openSecret = undefined;
        this.#skipToEndOfLine();
      } else if (character === '[') {
        this.#statement(() => this.#parseHeader());
      } else if (isLetter(character)) {
        this.#statement(() => this.#parseVariable());
      } else {
        this.#problem(this.#line, character === '\0' ? 'illegal character NUL' : `unexpected character ${describeCharacter(character)}: expected a section header or a variable`);
        this.#skipToEndOfLine();
      }
    }
    const sections: GcfgSection[] = this.#sections.map((section) => ({ ...section, variables: [...section.variables] }));
    return new GcfgDocument(this.#fileName, sections, this.#problems);
  }

  /** Runs one statement; on a problem, records it and skips the rest of the line. */
  #statement(parse: () => void): void {
    this.#openSecret = undefined;
    try {
      parse();
    } catch (error) {
      if (!(error instanceof StatementProblem)) throw error;
      this.#problem(error.line, error.message);
      this.#skipToEndOfLine();
    }
  }

  #parseHeader(): void {
    const line = this.#line;
    this.#current = undefined;
    this.#insideBrokenHeader = true;
    this.#advance(); // '['
    this.#skipBlanks();
    const name = this.#identifier();
    if (name === '') throw new StatementProblem(line, "expected a section name after '['");
    this.#skipBlanks();
    let subsection: string | undefined;
    if (this.#peek() === '"') {
      subsection = this.#quotedSubsection(line);
      if (subsection === '') throw new StatementProblem(line, `empty subsection name in section "${name}" (use [${name}] instead)`);
      this.#skipBlanks();
    }
    if (this.#peek() !== ']') {
      const found = this.#peek();
      if (found === '.' ) throw new StatementProblem(line, `the [section.subsection] form is not supported: write [${name} "subsection"]`);
      throw new StatementProblem(line, `missing ']' at the end of the header of section "${name}"`);
    }
    this.#advance();
    this.#expectEndOfStatement(line, `section header "${name}"`);
    this.#current = this.#sectionFor(name, subsection, line);
    this.#insideBrokenHeader = false;
  }

  #parseVariable(): void {
    const line = this.#line;
    const name = this.#identifier();
    this.#skipBlanks();
    const next = this.#peek();
    if (!this.#current && !this.#insideBrokenHeader) {
      throw new StatementProblem(line, `variable "${name}" appears before any [section] header`);
    }
    if (next === undefined || next === '\n' || next === ';' || next === '#') {
      this.#current?.variables.push({ name, value: undefined, line });
      return;
    }
    if (next !== '=') throw new StatementProblem(line, `missing '=' after variable "${name}"`);
    this.#advance();
    this.#skipBlanks();
    let value: string;
    try {
      value = this.#value(line, name);
    } catch (error) {
      if (error instanceof StatementProblem && error.unterminatedQuote && mayHoldSecret(name)) this.#openSecret = { name, line };
      throw error;
    }
    this.#current?.variables.push({ name, value, line });
  }

  /** Reads a value up to an unquoted end of line or comment, unquoting and unescaping it. */
  #value(line: number, name: string): string {
    let result = '';
    /** Length of `result` up to the last character that must be kept (quoted or non-blank). */
    let keptLength = 0;
    let inQuotes = false;
    for (;;) {
      const character = this.#peek();
      if (character === undefined || (character === '\n' && !inQuotes)) break;
      if (!inQuotes && (character === ';' || character === '#')) break;
      if (character === '\n') throw new StatementProblem(line, `unterminated quoted value of variable "${name}"`, { unterminatedQuote: true });
      this.#advance();
      if (character === '"') {
        inQuotes = !inQuotes;
        keptLength = result.length;
        continue;
      }
      if (character === '\\') {
        if (!inQuotes && this.#continuesOnNextLine()) continue;
        const escaped = this.#peek();
        const replacement = escaped === undefined ? undefined : ESCAPES[escaped];
        if (replacement === undefined) {
          const shown =
            escaped === undefined || escaped === '\n' ? 'the end of the line' : mayHoldSecret(name) ? 'a character (withheld)' : describeCharacter(escaped);
          throw new StatementProblem(this.#line, `invalid escape sequence '\\' followed by ${shown} in the value of variable "${name}"`);
        }
        this.#advance();
        result += replacement;
        keptLength = result.length;
        continue;
      }
      if (character === '\r' && !inQuotes) continue;
      if (character === '\0') throw new StatementProblem(this.#line, 'illegal character NUL');
      result += character;
      if (inQuotes || (character !== ' ' && character !== '\t')) keptLength = result.length;
    }
    if (inQuotes) throw new StatementProblem(line, `unterminated quoted value of variable "${name}"`, { unterminatedQuote: true });
    return result.slice(0, keptLength);
  }

  /** After an unquoted `\`: consumes an (optional `\r` and) newline, i.e. a line continuation. */
  #continuesOnNextLine(): boolean {
    if (this.#peek() === '\n') {
      this.#advance();
      return true;
    }
    if (this.#peek() === '\r' && this.#text[this.#position + 1] === '\n') {
      this.#advance();
      this.#advance();
      return true;
    }
    return false;
  }

  #quotedSubsection(line: number): string {
    this.#advance(); // opening quote
    let result = '';
    for (;;) {
      const character = this.#peek();
      if (character === undefined || character === '\n') throw new StatementProblem(line, 'unterminated subsection name');
      this.#advance();
      if (character === '"') return result;
      if (character === '\\') {
        const escaped = this.#peek();
        const replacement = escaped === undefined ? undefined : ESCAPES[escaped];
        if (replacement === undefined) throw new StatementProblem(line, 'invalid escape sequence in subsection name');
        this.#advance();
        result += replacement;
        continue;
      }
      result += character;
    }
  }

  /** A section header or `name =` (a bare word or other text may be the rest of an open value). */
  #startsStatement(): boolean {
    return /^(\[|\p{L}[\p{L}\p{Nd}-]*[ \t]*=)/u.test(this.#restOfLine());
  }

  #restOfLine(): string {
    const end = this.#text.indexOf('\n', this.#position);
    return this.#text.slice(this.#position, end < 0 ? undefined : end);
  }

  #expectEndOfStatement(line: number, what: string): void {
    this.#skipBlanks();
    const character = this.#peek();
    if (character === undefined || character === '\n') return;
    if (character === ';' || character === '#') {
      this.#skipToEndOfLine();
      return;
    }
    throw new StatementProblem(line, `unexpected text after ${what}`);
  }

  #sectionFor(name: string, subsection: string | undefined, line: number): MutableSection {
    const key = `${name.toLowerCase()}\u0000${subsection ?? ''}\u0000${subsection === undefined ? 'plain' : 'sub'}`;
    let section = this.#sectionsByKey.get(key);
    if (!section) {
      section = { name, subsection, line, variables: [] };
      this.#sectionsByKey.set(key, section);
      this.#sections.push(section);
    }
    return section;
  }

  #identifier(): string {
    const start = this.#position;
    const first = this.#peek();
    if (first === undefined || !isLetter(first)) return '';
    while (this.#position < this.#text.length) {
      const character = this.#text[this.#position] as string;
      if (!(isLetter(character) || isDigit(character) || character === '-')) break;
      this.#position += 1;
    }
    return this.#text.slice(start, this.#position);
  }

  #skipBlanks(): void {
    while (this.#position < this.#text.length) {
      const character = this.#text[this.#position];
      if (character !== ' ' && character !== '\t' && character !== '\r') break;
      this.#position += 1;
    }
  }

  #skipToEndOfLine(): void {
    while (this.#position < this.#text.length && this.#text[this.#position] !== '\n') this.#position += 1;
  }

  #peek(): string | undefined {
    return this.#text[this.#position];
  }

  #advance(): void {
    if (this.#text[this.#position] === '\n') this.#line += 1;
    this.#position += 1;
  }

  #problem(line: number, message: string): void {
    this.#problems.push({ fileName: this.#fileName, line, message });
  }
}

class StatementProblem extends Error {
  readonly line: number;
  readonly unterminatedQuote: boolean;
  constructor(line: number, message: string, options: { unterminatedQuote?: boolean } = {}) {
    super(message);
    this.line = line;
    this.unterminatedQuote = options.unterminatedQuote ?? false;
  }
}

function isLetter(character: string): boolean {
  return /\p{L}/u.test(character);
}

function isDigit(character: string): boolean {
  return /\p{Nd}/u.test(character);
}

function describeCharacter(character: string): string {
  return JSON.stringify(character).replace(/^"|"$/g, "'");
}
