/** Small fetch helpers for the HTTP tests. */

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = Record<string, unknown>>(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text (health endpoints, YAML)
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown> & { metadata?: Record<string, unknown> };
}

/** An open watch stream, read line by line. */
export class WatchReader {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private done = false;
  private constructor(
    readonly status: number,
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly controller: AbortController,
  ) {}

  static async open(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<WatchReader> {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}${path}`, { headers, signal: controller.signal });
    if (!response.body) throw new Error('no body');
    return new WatchReader(response.status, response.body.getReader(), controller);
  }

  /** The next event, or undefined when the stream ended. Rejects after `timeoutMs`. */
  async next(timeoutMs = 2000): Promise<WatchEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() !== '') return JSON.parse(line) as WatchEvent;
        continue;
      }
      if (this.done) return undefined;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no watch event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no watch event within ${timeoutMs} ms`)), remaining);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.done = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Resolves true when the server ends the stream within `timeoutMs`. */
  async ended(timeoutMs = 2000): Promise<boolean> {
    try {
      for (;;) if ((await this.next(timeoutMs)) === undefined) return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.controller.abort();
  }
}
