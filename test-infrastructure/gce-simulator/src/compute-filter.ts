import { GceError } from './gce-error.js';

/**
 * The `filter` query parameter of Compute list calls, in both forms the API accepts:
 * - regular expressions: `name eq "node-.*"`, `name ne .*-canary`, `(name eq a.*) (network eq ".+/networks/default")`;
 *   the literal is an RE2 expression that must match the whole field;
 * - AIP-160 comparisons: `name = "x"`, `status != RUNNING`, `(name = "a") OR (name = "b")`, `labels.owner:*`,
 *   `priority >= 1000`, joined with `AND` / `OR` (OR binds tighter) or by juxtaposition (AND), `NOT`.
 * The two forms cannot be mixed in one expression (as the API says).
 */
export type ComputeFilter = (resource: Record<string, unknown>) => boolean;

type Operator = 'eq' | 'ne' | '=' | '!=' | '>' | '<' | '>=' | '<=' | ':';

type FilterNode =
  | { type: 'and'; terms: FilterNode[] }
  | { type: 'or'; terms: FilterNode[] }
  | { type: 'not'; term: FilterNode }
  | { type: 'compare'; field: string; operator: Operator; value: string; quoted: boolean };

type Token =
  | { type: '(' | ')' }
  | { type: 'word'; text: string }
  | { type: 'operator'; operator: Operator }
  | { type: 'value'; text: string; quoted: boolean };

const SYMBOL_OPERATORS: Operator[] = ['!=', '>=', '<=', '=', '>', '<', ':'];

function invalidFilter(filter: string, why: string): GceError {
  return new GceError('invalid', `Invalid value for field 'filter': '${filter}'. ${why}`);
}

function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  let depth = 0;
  const expectValue = (): boolean => tokens.at(-1)?.type === 'operator';
  while (position < filter.length) {
    const char = filter[position] ?? '';
    if (/\s/.test(char)) {
      position += 1;
      continue;
    }
    if (expectValue()) {
      if (char === '"' || char === "'") {
        let text = '';
        let index = position + 1;
        for (; index < filter.length && filter[index] !== char; index += 1) {
          if (filter[index] === '\\' && index + 1 < filter.length) {
            const next = filter[index + 1] ?? '';
            // Keep regex escapes (\. \d ...) as written; unescape only the quote and the backslash.
            text += next === char || next === '\\' ? next : `\\${next}`;
            index += 1;
          } else text += filter[index] ?? '';
        }
        if (index >= filter.length) throw invalidFilter(filter, 'Unterminated quoted string.');
        tokens.push({ type: 'value', text, quoted: true });
        position = index + 1;
        continue;
      }
      let end = position;
      while (end < filter.length && !/\s/.test(filter[end] ?? '')) end += 1;
      let text = filter.slice(position, end);
      // Inside parentheses an unquoted literal may be followed directly by the closing ')'.
      while (depth > 0 && text.endsWith(')') && count(text, '(') < count(text, ')')) text = text.slice(0, -1);
      tokens.push({ type: 'value', text, quoted: false });
      position += text.length;
      continue;
    }
    if (char === '(' || char === ')') {
      tokens.push({ type: char });
      depth += char === '(' ? 1 : -1;
      position += 1;
      continue;
    }
    const symbol = SYMBOL_OPERATORS.find((operator) => filter.startsWith(operator, position));
    if (symbol !== undefined) {
      tokens.push({ type: 'operator', operator: symbol });
      position += symbol.length;
      continue;
    }
    const word = /^[A-Za-z0-9_.\-[\]]+/.exec(filter.slice(position))?.[0];
    if (word === undefined) throw invalidFilter(filter, `Unexpected character '${char}' at position ${position}.`);
    const previous = tokens.at(-1);
    if ((word === 'eq' || word === 'ne') && previous?.type === 'word') tokens.push({ type: 'operator', operator: word });
    else tokens.push({ type: 'word', text: word });
    position += word.length;
  }
  return tokens;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

class FilterParser {
  private position = 0;
  constructor(
    private readonly filter: string,
    private readonly tokens: Token[],
  ) {}

  parse(): FilterNode {
    const node = this.parseSequence();
    if (this.position < this.tokens.length) throw invalidFilter(this.filter, 'Unexpected text after the expression.');
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isKeyword(token: Token | undefined, keyword: string): boolean {
    return token?.type === 'word' && token.text === keyword && this.tokens[this.position + 1]?.type !== 'operator';
  }

  /** term (AND? term)* — juxtaposition is AND. */
  private parseSequence(): FilterNode {
    const terms: FilterNode[] = [this.parseOr()];
    for (;;) {
      const token = this.peek();
      if (token === undefined || token.type === ')') break;
      if (this.isKeyword(token, 'AND')) this.position += 1;
      terms.push(this.parseOr());
    }
    return terms.length === 1 ? (terms[0] as FilterNode) : { type: 'and', terms };
  }

  private parseOr(): FilterNode {
    const terms: FilterNode[] = [this.parseTerm()];
    while (this.isKeyword(this.peek(), 'OR')) {
      this.position += 1;
      terms.push(this.parseTerm());
    }
    return terms.length === 1 ? (terms[0] as FilterNode) : { type: 'or', terms };
  }

  private parseTerm(): FilterNode {
    const token = this.peek();
    if (token === undefined) throw invalidFilter(this.filter, 'The expression ends early.');
    if (token.type === '(') {
      this.position += 1;
      const inner = this.parseSequence();
      if (this.peek()?.type !== ')') throw invalidFilter(this.filter, "Missing ')'.");
      this.position += 1;
      return inner;
    }
    if (this.isKeyword(token, 'NOT')) {
      this.position += 1;
      return { type: 'not', term: this.parseTerm() };
    }
    if (token.type !== 'word') throw invalidFilter(this.filter, 'Expected a field name.');
    const operator = this.tokens[this.position + 1];
    const value = this.tokens[this.position + 2];
    if (operator?.type !== 'operator') throw invalidFilter(this.filter, `Expected an operator after '${token.text}'.`);
    if (value?.type !== 'value') throw invalidFilter(this.filter, `Expected a value after '${token.text} ${operator.operator}'.`);
    this.position += 3;
    return { type: 'compare', field: token.text, operator: operator.operator, value: value.text, quoted: value.quoted };
  }
}

function operatorsOf(node: FilterNode): Operator[] {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.terms.flatMap(operatorsOf);
    case 'not':
      return operatorsOf(node.term);
    case 'compare':
      return [node.operator];
  }
}

function fieldValue(resource: unknown, field: string): unknown {
  let current: unknown = resource;
  for (const part of field.split('.')) {
    if (Array.isArray(current)) current = current.flatMap((item: unknown) => fieldValue(item, part) ?? []);
    else if (current !== null && typeof current === 'object') current = (current as Record<string, unknown>)[part];
    else return undefined;
  }
  return current;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function compareScalar(value: unknown, operator: Operator, literal: string, regex: RegExp | undefined): boolean {
  const text = scalarText(value);
  switch (operator) {
    case 'eq':
      return regex?.test(text ?? '') ?? false;
    case 'ne':
      return !(regex?.test(text ?? '') ?? false);
    case '=':
      return text === literal;
    case '!=':
      return text !== literal;
    case ':':
      if (literal === '*') return value !== undefined && value !== null;
      return text !== undefined && text.includes(literal);
    default: {
      if (text === undefined) return false;
      const left = Number(text);
      const right = Number(literal);
      const order = Number.isFinite(left) && Number.isFinite(right) && text !== '' && literal !== '' ? left - right : text.localeCompare(literal);
      if (operator === '>') return order > 0;
      if (operator === '<') return order < 0;
      if (operator === '>=') return order >= 0;
      return order <= 0;
    }
  }
}

function evaluate(node: FilterNode, resource: Record<string, unknown>, regexes: Map<FilterNode, RegExp>): boolean {
  switch (node.type) {
    case 'and':
      return node.terms.every((term) => evaluate(term, resource, regexes));
    case 'or':
      return node.terms.some((term) => evaluate(term, resource, regexes));
    case 'not':
      return !evaluate(node.term, resource, regexes);
    case 'compare': {
      const value = fieldValue(resource, node.field);
      const regex = regexes.get(node);
      if (node.operator === ':' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return node.value === '*' ? true : Object.hasOwn(value, node.value);
      }
      if (Array.isArray(value)) {
        if (node.operator === 'ne' || node.operator === '!=') return value.every((item) => compareScalar(item, node.operator, node.value, regex));
        return value.some((item) => compareScalar(item, node.operator, node.value, regex));
      }
      return compareScalar(value, node.operator, node.value, regex);
    }
  }
}

function collectRegexes(filter: string, node: FilterNode, into: Map<FilterNode, RegExp>): void {
  if (node.type === 'and' || node.type === 'or') node.terms.forEach((term) => collectRegexes(filter, term, into));
  else if (node.type === 'not') collectRegexes(filter, node.term, into);
  else if (node.operator === 'eq' || node.operator === 'ne') {
    try {
      into.set(node, new RegExp(`^(?:${node.value})$`, 'u'));
    } catch {
      throw invalidFilter(filter, `'${node.value}' is not a valid regular expression.`);
    }
  }
}

/** Parses a Compute list filter; an empty or absent filter matches everything. Throws GceError `invalid`. */
export function parseComputeFilter(filter: string | null | undefined): ComputeFilter {
  if (filter === null || filter === undefined || filter.trim() === '') return () => true;
  const node = new FilterParser(filter, tokenize(filter)).parse();
  const operators = operatorsOf(node);
  const regexStyle = operators.some((operator) => operator === 'eq' || operator === 'ne');
  if (regexStyle && operators.some((operator) => operator !== 'eq' && operator !== 'ne')) {
    throw invalidFilter(filter, 'Regular expression (eq, ne) and AIP-160 comparisons cannot be mixed in one filter.');
  }
  const regexes = new Map<FilterNode, RegExp>();
  collectRegexes(filter, node, regexes);
  return (resource) => evaluate(node, resource, regexes);
}
