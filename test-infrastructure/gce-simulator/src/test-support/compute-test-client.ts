import type { GceSimulator } from '../start-gce-simulator.js';

export interface ComputeResponse {
  status: number;
  body: Record<string, unknown>;
}

/** A plain HTTP client of the simulator's Compute API for tests (what any client sends). */
export class ComputeTestClient {
  readonly calls: string[] = [];

  private constructor(
    readonly simulator: GceSimulator,
    private readonly token: string | undefined,
  ) {}

  /** Fetches a token from the simulator's token endpoint unless `anonymous`. */
  static async connect(simulator: GceSimulator, options: { anonymous?: boolean } = {}): Promise<ComputeTestClient> {
    if (options.anonymous === true) return new ComputeTestClient(simulator, undefined);
    const response = await fetch(simulator.tokenUrl, { method: 'POST', body: '' });
    const body = (await response.json()) as { accessToken: string };
    return new ComputeTestClient(simulator, body.accessToken);
  }

  /** `path` is relative to `projects/{project}/` unless it starts with `projects/`. */
  url(path: string, query: Record<string, string> = {}): string {
    const relative = path.startsWith('projects/') ? path : `projects/${this.simulator.project}/${path}`;
    const search = new URLSearchParams(query).toString();
    return `${this.simulator.url}/compute/v1/${relative}${search === '' ? '' : `?${search}`}`;
  }

  async call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<ComputeResponse> {
    this.calls.push(`${method} ${path}`);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token !== undefined) headers['authorization'] = `Bearer ${this.token}`;
    const response = await fetch(this.url(path, query), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  }

  async get(path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const response = await this.call('GET', path, undefined, query);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  /** Sends a mutation, then waits on its Operation; throws unless it ends DONE without error. */
  async mutate(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const response = await this.call(method, path, body, query);
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    const done = await this.waitFor(response.body);
    if (done['error'] !== undefined) throw new Error(`${method} ${path}: the operation failed: ${JSON.stringify(done['error'])}`);
    return done;
  }

  /** Waits on an Operation through its scope's `wait` method. */
  async waitFor(operation: Record<string, unknown>): Promise<Record<string, unknown>> {
    const selfLink = String(operation['selfLink']);
    const relative = selfLink.slice(selfLink.indexOf('projects/'));
    const response = await this.call('POST', `${relative}/wait`);
    if (response.status !== 200) throw new Error(`wait ${relative} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }
}

/** The items of a list response (`[]` when Compute omits `items`). */
export function itemsOf(list: Record<string, unknown>): Record<string, unknown>[] {
  return (list['items'] as Record<string, unknown>[] | undefined) ?? [];
}

/** The names in a list or aggregatedList response. */
export function namesOf(list: Record<string, unknown>): string[] {
  const items = list['items'];
  if (Array.isArray(items)) return items.map((item: Record<string, unknown>) => String(item['name']));
  if (items === undefined) return [];
  return Object.values(items as Record<string, Record<string, unknown>>).flatMap((scoped) =>
    Object.entries(scoped)
      .filter(([key]) => key !== 'warning')
      .flatMap(([, list]) => (list as Record<string, unknown>[]).map((item) => String(item['name']))),
  );
}
