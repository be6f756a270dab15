/**
 * Label selectors in the string syntax of `?labelSelector=`: `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<5`, comma-separated (AND).
 */
import { labelValueErrors, qualifiedNameErrors } from '../resources/name-validation.js';

export type LabelOperator = 'exists' | 'doesNotExist' | 'equals' | 'notEquals' | 'in' | 'notIn' | 'greaterThan' | 'lessThan';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** True when the selector selects everything. */
  readonly empty: boolean;
}

export class LabelSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorParseError';
  }
}

type Token = { kind: 'identifier'; text: string } | { kind: 'operator'; text: string } | { kind: 'end' };

const operatorCharacters = new Set(['!', '=', '<', '>', ',', '(', ')']);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < input.length) {
    const character = input[index] ?? '';
    if (/\s/.test(character)) {
      index++;
      continue;
    }
    if (operatorCharacters.has(character)) {
      const pair = input.slice(index, index + 2);
      if (pair === '!=' || pair === '==') {
        tokens.push({ kind: 'operator', text: pair });
        index += 2;
      } else {
        tokens.push({ kind: 'operator', text: character });
        index++;
      }
      continue;
    }
    let end = index;
    while (end < input.length && !operatorCharacters.has(input[end] ?? '') && !/\s/.test(input[end] ?? '')) end++;
    tokens.push({ kind: 'identifier', text: input.slice(index, end) });
    index = end;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.position] ?? { kind: 'end' };
  }
  private next(): Token {
    const token = this.peek();
    this.position++;
    return token;
  }
  private describe(token: Token): string {
    return token.kind === 'end' ? 'end of string' : `'${token.text}'`;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().kind === 'end') return requirements;
    for (;;) {
      requirements.push(this.requirement());
      const token = this.next();
      if (token.kind === 'end') return requirements;
      if (!(token.kind === 'operator' && token.text === ',')) throw new LabelSelectorParseError(`found ${this.describe(token)}, expected: ',' or 'end of string'`);
    }
  }

  private requirement(): LabelRequirement {
    let token = this.next();
    if (token.kind === 'operator' && token.text === '!') {
      token = this.next();
      if (token.kind !== 'identifier') throw new LabelSelectorParseError(`found ${this.describe(token)}, expected: identifier after '!'`);
      return checked({ key: token.text, operator: 'doesNotExist', values: [] });
    }
    if (token.kind !== 'identifier') throw new LabelSelectorParseError(`found ${this.describe(token)}, expected: !, identifier, or 'end of string'`);
    const key = token.text;
    const following = this.peek();
    if (following.kind === 'end' || (following.kind === 'operator' && following.text === ',')) return checked({ key, operator: 'exists', values: [] });
    const operatorToken = this.next();
    const operator = operatorToken.kind === 'identifier' || operatorToken.kind === 'operator' ? operatorToken.text : '';
    switch (operator) {
      case '=':
      case '==':
        return checked({ key, operator: 'equals', values: [this.singleValue()] });
      case '!=':
        return checked({ key, operator: 'notEquals', values: [this.singleValue()] });
      case '>':
      case '<': {
        const value = this.singleValue();
        if (!/^-?\d+$/.test(value)) throw new LabelSelectorParseError(`for '${operator}' operator, the value must be an integer`);
        return checked({ key, operator: operator === '>' ? 'greaterThan' : 'lessThan', values: [value] });
      }
      case 'in':
      case 'notin':
        return checked({ key, operator: operator === 'in' ? 'in' : 'notIn', values: this.valueSet() });
      default:
        throw new LabelSelectorParseError(`found ${this.describe(operatorToken)}, expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private singleValue(): string {
    const token = this.peek();
    if (token.kind === 'identifier') {
      this.position++;
      return token.text;
    }
    if (token.kind === 'end' || (token.kind === 'operator' && token.text === ',')) return '';
    throw new LabelSelectorParseError(`found ${this.describe(token)}, expected: identifier`);
  }

  private valueSet(): string[] {
    const open = this.next();
    if (!(open.kind === 'operator' && open.text === '(')) throw new LabelSelectorParseError(`found ${this.describe(open)}, expected: '('`);
    const values: string[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === 'identifier') {
        values.push(token.text);
        this.position++;
      } else if (token.kind === 'operator' && (token.text === ',' || token.text === ')')) {
        values.push('');
      } else {
        throw new LabelSelectorParseError(`found ${this.describe(token)}, expected: ',', ')' or identifier`);
      }
      const separator = this.next();
      if (separator.kind === 'operator' && separator.text === ')') break;
      if (!(separator.kind === 'operator' && separator.text === ',')) throw new LabelSelectorParseError(`found ${this.describe(separator)}, expected: ',' or ')'`);
    }
    if (values.length === 1 && values[0] === '') throw new LabelSelectorParseError('for \'in\', \'notin\' operators, values set can\'t be empty');
    return values;
  }
}

function checked(requirement: LabelRequirement): LabelRequirement {
  for (const message of qualifiedNameErrors(requirement.key)) {
    throw new LabelSelectorParseError(`key: Invalid value: ${JSON.stringify(requirement.key)}: ${message}`);
  }
  if (requirement.operator !== 'greaterThan' && requirement.operator !== 'lessThan') {
    requirement.values.forEach((value, index) => {
      for (const message of labelValueErrors(value)) {
        throw new LabelSelectorParseError(`values[${index}][${requirement.key}]: Invalid value: ${JSON.stringify(value)}: ${message}`);
      }
    });
  }
  return requirement;
}

function requirementMatches(requirement: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const value = has ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case 'exists':
      return has;
    case 'doesNotExist':
      return !has;
    case 'equals':
    case 'in':
      return has && requirement.values.includes(value ?? '');
    case 'notEquals':
    case 'notIn':
      return !has || !requirement.values.includes(value ?? '');
    case 'greaterThan':
    case 'lessThan': {
      if (!has || !/^-?\d+$/.test(value ?? '')) return false;
      const actual = Number(value);
      const limit = Number(requirement.values[0]);
      return requirement.operator === 'greaterThan' ? actual > limit : actual < limit;
    }
  }
}

/** Parses a label selector; throws LabelSelectorParseError (the API answers 400). */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  const requirements = input ? new Parser(tokenize(input)).parse() : [];
  return {
    requirements,
    empty: requirements.length === 0,
    matches(labels) {
      const actual = labels ?? {};
      for (const requirement of requirements) if (!requirementMatches(requirement, actual)) return false;
      return true;
    },
  };
}

export const matchEverythingLabels: LabelSelector = parseLabelSelector('');
