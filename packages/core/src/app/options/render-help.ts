/**
 * `--help` text generated from the flag registry, in pflag's layout: named sections
 * ("Generic flags:") listing `--name type   help (default ...)`. Deprecated flags are hidden,
 * as pflag does; ignored flags say so.
 */
import { flagValueName, formatFlagDefault, type FlagDefinition } from './flag-definition.js';
import type { FlagRegistry } from './flag-registry.js';

export interface HelpSettings {
  commandName: string;
  /** One paragraph at the top. */
  description?: string;
  /** Terminal width for wrapping; 0 disables wrapping. */
  columns?: number;
}

export function renderHelp(registry: FlagRegistry, settings: HelpSettings): string {
  const columns = settings.columns ?? 100;
  const lines: string[] = [];
  lines.push(
    settings.description ??
      'The Cloud controller manager is a daemon that embeds the cloud specific control loops shipped with Kubernetes.',
    '',
    'Usage:',
    `  ${settings.commandName} [flags]`,
  );
  const sections = new Map<string, FlagDefinition[]>();
  for (const group of registry.groups()) {
    const list = sections.get(group.section) ?? [];
    list.push(...Object.values(group.flags).filter((definition) => definition.deprecated === undefined));
    sections.set(group.section, list);
  }
  for (const [section, definitions] of sections) {
    if (definitions.length === 0) continue;
    lines.push('', `${section.charAt(0).toUpperCase()}${section.slice(1)} flags:`, '');
    const heads = definitions.map((definition) => flagHead(definition));
    const width = Math.max(...heads.map((head) => head.length)) + 3;
    definitions.forEach((definition, index) => {
      const head = (heads[index] as string).padEnd(width);
      const text = flagHelpText(definition, registry.defaultOf(definition.name));
      lines.push(...wrap(head, text, columns));
    });
  }
  return `${lines.join('\n')}\n`;
}

function flagHead(definition: FlagDefinition): string {
  const shorthand = definition.shorthand === undefined ? '    ' : `-${definition.shorthand}, `;
  const valueName = flagValueName(definition);
  return `  ${shorthand}--${definition.name}${valueName === '' ? '' : ` ${valueName}`}`;
}

/** The help sentence with the default and, for ignored flags, why they have no effect. */
export function flagHelpText(definition: FlagDefinition, defaultValue = definition.default): string {
  let text = definition.help;
  const shownDefault = definition.name === 'version' ? undefined : formatFlagDefault(definition, defaultValue);
  if (shownDefault !== undefined) text += ` (default ${shownDefault})`;
  if (definition.ignored !== undefined) text += ` [accepted but ignored: ${definition.ignored}]`;
  return text;
}

function wrap(head: string, text: string, columns: number): string[] {
  const paragraphs = text.split('\n');
  const indent = ' '.repeat(head.length);
  const available = columns - head.length;
  const result: string[] = [];
  let first = true;
  for (const paragraph of paragraphs) {
    const words = paragraph.split(' ');
    let line = '';
    const flush = () => {
      result.push(`${first ? head : indent}${line}`.trimEnd());
      first = false;
      line = '';
    };
    for (const word of words) {
      if (columns > 0 && available > 20 && line !== '' && line.length + 1 + word.length > available) flush();
      line = line === '' ? word : `${line} ${word}`;
    }
    flush();
  }
  return result;
}
