/**
 * `--authorization-always-allow-paths` (upstream `path.NewAuthorizer`): exact paths, or prefixes
 * written with one trailing `*`. The leading `/` is optional on both sides; `/healthz` does not
 * match `/healthz/ping`. A `*` anywhere else is an error.
 */
export function alwaysAllowPathsProblem(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const trimmed = path.replace(/^\//, '');
    if (trimmed.length > 1 && trimmed.slice(0, -1).includes('*')) return `only trailing * allowed in ${JSON.stringify(path)}`;
  }
  return undefined;
}

/** A matcher for request paths; throws on a pattern {@link alwaysAllowPathsProblem} rejects. */
export function alwaysAllowPathMatcher(paths: readonly string[]): (requestPath: string) => boolean {
  const problem = alwaysAllowPathsProblem(paths);
  if (problem !== undefined) throw new Error(problem);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const path of paths) {
    const trimmed = path.replace(/^\//, '');
    if (trimmed.endsWith('*')) prefixes.push(trimmed.slice(0, -1));
    else exact.add(trimmed);
  }
  return (requestPath) => {
    const trimmed = requestPath.replace(/^\//, '');
    return exact.has(trimmed) || prefixes.some((prefix) => trimmed.startsWith(prefix));
  };
}
