/**
 * `--controllers` semantics (k8s.io/controller-manager app/helper.go): entries are read in
 * order and the first one naming a controller wins (`name` enables, `-name` disables); `*`
 * enables every controller that is not disabled by default. Aliases are rewritten to canonical
 * names first, keeping the `-` prefix.
 */
import { CONTROLLER_ALIASES } from '../../names/controller-names.js';

/** Rewrites aliases (`route`, `-service`) to canonical names (`node-route-controller`, `-service-lb-controller`). */
export function resolveControllerAliases(entries: readonly string[], aliases: Readonly<Record<string, string>> = CONTROLLER_ALIASES): string[] {
  return entries.map((entry) => {
    const disabled = entry.startsWith('-');
    const name = disabled ? entry.slice(1) : entry;
    const canonical = Object.hasOwn(aliases, name) ? (aliases[name] as string) : name;
    return disabled ? `-${canonical}` : canonical;
  });
}

/** Upstream `IsControllerEnabled`, on alias-resolved entries. */
export function isControllerEnabled(name: string, entries: readonly string[], disabledByDefault: ReadonlySet<string> = new Set()): boolean {
  let hasStar = false;
  for (const entry of entries) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') hasStar = true;
  }
  return hasStar && !disabledByDefault.has(name);
}

/** One message per entry that names no known controller (after stripping `-` and resolving aliases). */
export function validateControllerEntries(
  entries: readonly string[],
  knownControllers: readonly string[],
  aliases: Readonly<Record<string, string>> = CONTROLLER_ALIASES,
): string[] {
  const errors: string[] = [];
  for (const entry of resolveControllerAliases(entries, aliases)) {
    if (entry === '*') continue;
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!knownControllers.includes(name)) errors.push(`--controllers: ${JSON.stringify(name)} is not in the list of known controllers`);
  }
  return errors;
}
