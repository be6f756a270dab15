/**
 * Field selectors (`?fieldSelector=metadata.name=n1,spec.type!=ClusterIP`): terms of `=`, `==`
 * or `!=` joined by commas; `\,`, `\=` and `\\` escape. Which fields a resource supports is
 * decided by its definition; an unsupported field is a 400 like kube-apiserver answers.
 */

export interface FieldRequirement {
  field: string;
  operator: 'equals' | 'notEquals';
  value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  matches(fieldValue: (field: string) => string): boolean;
}

export class FieldSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorParseError';
  }
}

function splitUnescaped(input: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < input.length; index++) {
    const character = input[index] ?? '';
    if (character === '\\' && index + 1 < input.length) {
      current += character + (input[index + 1] ?? '');
      index++;
    } else if (character === separator) {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(value: string, term: string): string {
  let result = '';
  for (let index = 0; index < value.length; index++) {
    const character = value[index] ?? '';
    if (character === '\\') {
      const escaped = value[index + 1];
      if (escaped === undefined || !['\\', ',', '='].includes(escaped)) {
        throw new FieldSelectorParseError(`invalid field selector: '${term}'; invalid escape sequence`);
      }
      result += escaped;
      index++;
    } else if (character === ',' || character === '=') {
      throw new FieldSelectorParseError(`invalid field selector: '${term}'; unescaped '${character}'`);
    } else {
      result += character;
    }
  }
  return result;
}

/** Finds the first unescaped operator in a term. */
function splitTerm(term: string): FieldRequirement {
  for (let index = 0; index < term.length; index++) {
    const character = term[index];
    if (character === '\\') {
      index++;
      continue;
    }
    for (const [text, operator] of [['!=', 'notEquals'], ['==', 'equals'], ['=', 'equals']] as const) {
      if (term.startsWith(text, index)) {
        return { field: unescape(term.slice(0, index), term), operator, value: unescape(term.slice(index + text.length), term) };
      }
    }
  }
  throw new FieldSelectorParseError(`invalid selector: '${term}'; can't understand '${term}'`);
}

export function parseFieldSelector(input: string | undefined): FieldSelector {
  const requirements: FieldRequirement[] = [];
  if (input && input.trim() !== '') {
    for (const term of splitUnescaped(input, ',')) {
      if (term.trim() === '') continue;
      requirements.push(splitTerm(term.trim()));
    }
  }
  return {
    requirements,
    empty: requirements.length === 0,
    matches(fieldValue) {
      for (const requirement of requirements) {
        const actual = fieldValue(requirement.field);
        if ((actual === requirement.value) !== (requirement.operator === 'equals')) return false;
      }
      return true;
    },
  };
}
