/**
 * Keeps the last `limitBytes` of a process's output (stdout and stderr interleaved) so a
 * failing test can show what the process said without holding unbounded logs.
 */
export class OutputBuffer {
  private chunks: string[] = [];
  private size = 0;
  private droppedBytes = 0;

  constructor(private readonly limitBytes = 256 * 1024) {}

  append(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.limitBytes && this.chunks.length > 1) {
      const removed = this.chunks.shift() ?? '';
      this.size -= removed.length;
      this.droppedBytes += removed.length;
    }
  }

  /** Everything kept, prefixed with a note when older output was dropped. */
  text(): string {
    const body = this.chunks.join('');
    return this.droppedBytes > 0 ? `[... ${this.droppedBytes} earlier characters dropped ...]\n${body}` : body;
  }

  /** The last `lines` lines. */
  tail(lines: number): string {
    const all = this.text().split('\n');
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines).join('\n');
  }

  includes(fragment: string): boolean {
    return this.chunks.join('').includes(fragment);
  }
}
