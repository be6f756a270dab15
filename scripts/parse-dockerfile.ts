// A small Dockerfile reader for the static checks of the root Dockerfile (scripts/image/dockerfile.test.ts): instructions with their
// keyword (upper-cased) and arguments, line continuations joined, comments and parser directives
// dropped. Heredocs are not supported (our Dockerfiles do not use them).

export interface DockerInstruction {
  keyword: string;
  arguments: string;
  /** 1-based line where the instruction starts. */
  line: number;
}

export function parseDockerfile(text: string): DockerInstruction[] {
  const instructions: DockerInstruction[] = [];
  const lines = text.split(/\r?\n/);
  let pending: { parts: string[]; line: number } | undefined;
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.trim();
    // Comments (and directives such as `# syntax=`) are dropped, also inside a continuation.
    if (trimmed.startsWith('#')) continue;
    if (pending === undefined && trimmed === '') continue;
    const continues = trimmed.endsWith('\\');
    const content = continues ? trimmed.slice(0, -1).trim() : trimmed;
    pending ??= { parts: [], line: index + 1 };
    if (content !== '') pending.parts.push(content);
    if (continues) continue;
    const joined = pending.parts.join(' ');
    const match = /^(\S+)\s*(.*)$/s.exec(joined);
    if (match !== null) instructions.push({ keyword: match[1]!.toUpperCase(), arguments: match[2]!.trim(), line: pending.line });
    pending = undefined;
  }
  if (pending !== undefined) throw new Error(`Dockerfile line ${pending.line}: the last instruction ends with a line continuation`);
  return instructions;
}
