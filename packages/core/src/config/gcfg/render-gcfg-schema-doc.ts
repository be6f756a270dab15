import type { GcfgKeySpec, GcfgSchema, GcfgSchemaSpec } from './gcfg-schema.js';

/**
 * Renders a schema as Markdown: one table per section (key, type, default, description), so a
 * provider's cloud-config reference is generated from the same declaration the reader uses.
 */
export function renderGcfgSchemaDoc(schema: GcfgSchema<GcfgSchemaSpec>, options: { headingLevel?: number } = {}): string {
  const heading = '#'.repeat(options.headingLevel ?? 3);
  const parts: string[] = [];
  for (const section of Object.values(schema.sections)) {
    const title = section.subsections ? `[${section.name} "<name>"]` : `[${section.name}]`;
    parts.push(`${heading} \`${title}\``, '');
    if (section.description) parts.push(section.description, '');
    if (section.subsections) parts.push('This section may be repeated with different names.', '');
    parts.push('| Key | Type | Default | Description |', '| --- | --- | --- | --- |');
    for (const key of Object.values(section.keys)) {
      parts.push(`| \`${key.name}\` | ${describeGcfgKeyType(key)} | ${describeGcfgKeyDefault(key)} | ${describeKey(key)} |`);
    }
    parts.push('');
  }
  return parts.join('\n');
}

/** The type column of a cloud-config key (shared by every provider's generated reference). */
export function describeGcfgKeyType(key: GcfgKeySpec): string {
  switch (key.type) {
    case 'list':
      return 'string, repeatable';
    case 'bool':
      return 'boolean';
    case 'int':
      return 'integer';
    case 'string':
      return key.allowed ? `one of ${key.allowed.map((value) => (value === '' ? '(empty)' : `\`${value}\``)).join(', ')}` : 'string';
  }
}

/** The default column of a cloud-config key. */
export function describeGcfgKeyDefault(key: GcfgKeySpec): string {
  if (key.required) return '(required)';
  const value = key.default;
  if (value === undefined) {
    return key.type === 'bool' ? '`false`' : key.type === 'int' ? '`0`' : key.type === 'list' ? '(none)' : '(empty)';
  }
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((item) => `\`${String(item)}\``).join(', ');
  if (value === '') return '(empty)';
  return `\`${escapeCell(String(value))}\``;
}

function describeKey(key: GcfgKeySpec): string {
  let text = escapeCell(key.description);
  if (key.secret) text += ' Secret: keep this file in a Secret.';
  if (key.deprecated !== undefined) text += ` **Deprecated**: ${escapeCell(key.deprecated)}`;
  return text;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
