/**
 * Name and label format checks with the wording of apimachinery's validation package.
 * Each function returns the list of problems (empty when the value is valid).
 */

const dns1123LabelFormat = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelPattern = new RegExp(`^${dns1123LabelFormat}$`);
const dns1123SubdomainFormat = `${dns1123LabelFormat}(\\.${dns1123LabelFormat})*`;
const dns1123SubdomainPattern = new RegExp(`^${dns1123SubdomainFormat}$`);
const dns1035LabelFormat = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelPattern = new RegExp(`^${dns1035LabelFormat}$`);
const qualifiedNameFormat = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNamePattern = new RegExp(`^${qualifiedNameFormat}$`);
const labelValueFormat = `(${qualifiedNameFormat})?`;
const labelValuePattern = new RegExp(`^${labelValueFormat}$`);

const examples = (...items: string[]): string => `(e.g. ${items.map((item) => `'${item}'`).join(',  or ')}, regex used for validation is `;

export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!dns1123LabelPattern.test(value)) {
    errors.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character ${examples('my-name', '123-abc')}'${dns1123LabelFormat}')`,
    );
  }
  return errors;
}

export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push('must be no more than 253 characters');
  if (!dns1123SubdomainPattern.test(value)) {
    errors.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character ${examples('example.com')}'${dns1123SubdomainFormat}')`,
    );
  }
  return errors;
}

export function dns1035LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!dns1035LabelPattern.test(value)) {
    errors.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character ${examples('my-name', 'abc-123')}'${dns1035LabelFormat}')`,
    );
  }
  return errors;
}

/** A label key, annotation key or finalizer: `[prefix/]name`. */
export function qualifiedNameErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else for (const message of dns1123SubdomainErrors(prefix)) errors.push(`prefix part ${message}`);
  } else {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${examples('MyName', 'my.name', '123-abc')}'${qualifiedNameFormat}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedNamePattern.test(name)) {
    errors.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${examples('MyName', 'my.name', '123-abc')}'${qualifiedNameFormat}')`,
    );
  }
  return errors;
}

export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!labelValuePattern.test(value)) {
    errors.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${examples('MyValue', 'my_value', '12345')}'${labelValueFormat}')`,
    );
  }
  return errors;
}

/** Names that could not be used as a URL path segment. */
export function pathSegmentNameErrors(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errors: string[] = [];
  for (const forbidden of ['/', '%']) if (value.includes(forbidden)) errors.push(`may not contain '${forbidden}'`);
  return errors;
}

export type NameValidator = (name: string) => string[];
