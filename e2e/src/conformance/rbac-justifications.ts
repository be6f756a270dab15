import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RBAC_DOC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'rbac.md');
export const UNUSED_RULES_HEADING = '## Rules the conformance suite does not use';

/**
 * The rule verbs docs/rbac.md justifies although no conformance request uses them: the first
 * column (in backticks) of the table under "Rules the conformance suite does not use", each with
 * a non-empty reason in the second column.
 */
export function justifiedUnusedRules(markdown = readFileSync(RBAC_DOC, 'utf8')): Set<string> {
  const start = markdown.indexOf(UNUSED_RULES_HEADING);
  if (start < 0) return new Set();
  const rest = markdown.slice(start + UNUSED_RULES_HEADING.length);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const rules = new Set<string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4) continue;
    const rule = /^`(.+)`$/.exec(cells[1] ?? '')?.[1];
    if (rule !== undefined && (cells[2] ?? '') !== '') rules.add(rule);
  }
  return rules;
}
