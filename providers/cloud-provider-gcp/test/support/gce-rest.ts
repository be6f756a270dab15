/**
 * A minimal Compute v1 REST client for the conformance driver and the simulator tests: bearer
 * token from the simulator's token endpoint, JSON requests, mutating calls waited on through the
 * operation's `wait`. It seeds the cloud (network, subnetwork, instances) through the Compute API
 * itself and reads back what the CCM created, as any other client of the API would.
 */
export interface GceRestOptions {
  /** `http://127.0.0.1:PORT` (the API is under `/compute/v1/`). */
  url: string;
  tokenUrl: string;
  project: string;
}

export class GceRestError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'GceRestError';
    this.status = status;
  }
}

interface Operation {
  name: string;
  status: string;
  zone?: string;
  region?: string;
  error?: { errors?: Array<{ code?: string; message?: string }> };
}

export class GceRest {
  readonly #options: GceRestOptions;
  #token: string | undefined;

  constructor(options: GceRestOptions) {
    this.#options = options;
  }

  get project(): string {
    return this.#options.project;
  }

  async #bearer(): Promise<string> {
    if (this.#token === undefined) {
      const response = await fetch(this.#options.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      this.#token = ((await response.json()) as { accessToken: string }).accessToken;
    }
    return this.#token;
  }

  /** `path` relative to `projects/<project>/`. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.#options.url}/compute/v1/projects/${this.#options.project}/${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.#bearer()}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new GceRestError(`${method} ${path}: HTTP ${response.status}: ${text}`, response.status);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }

  async get<T>(path: string): Promise<T | undefined> {
    try {
      return await this.request<T>('GET', path);
    } catch (error) {
      if (error instanceof GceRestError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Every item of a list (following `nextPageToken`). */
  async list<T>(path: string, filter?: string): Promise<T[]> {
    const items: T[] = [];
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({ ...(filter === undefined ? {} : { filter }), ...(pageToken === undefined ? {} : { pageToken }) }).toString();
      const page = await this.request<{ items?: T[]; nextPageToken?: string }>('GET', query === '' ? path : `${path}?${query}`);
      items.push(...(page.items ?? []));
      pageToken = page.nextPageToken;
    } while (pageToken !== undefined && pageToken !== '');
    return items;
  }

  /** A mutating call, waited on until its operation is DONE; throws the operation's error. */
  async mutate(method: string, path: string, body?: unknown): Promise<void> {
    let operation = await this.request<Operation>(method, path, body);
    while (operation.status !== 'DONE') {
      const scope = operation.zone ? `zones/${last(operation.zone)}` : operation.region ? `regions/${last(operation.region)}` : 'global';
      operation = await this.request<Operation>('POST', `${scope}/operations/${operation.name}/wait`);
    }
    const failure = operation.error?.errors?.[0];
    if (failure !== undefined) throw new GceRestError(`${method} ${path}: ${failure.code ?? ''}: ${failure.message ?? ''}`, 400);
  }
}

export const last = (url: string): string => url.split('/').at(-1) ?? url;

export interface SeededInstance {
  name: string;
  zone: string;
  networkIP: string;
  natIP: string | undefined;
  machineType: string;
}

/** A custom-mode network and one subnetwork in `region`. */
export async function seedNetwork(rest: GceRest, network: string, region: string, cidr = '10.128.0.0/16'): Promise<void> {
  if ((await rest.get(`global/networks/${network}`)) === undefined) await rest.mutate('POST', 'global/networks', { name: network, autoCreateSubnetworks: false });
  if ((await rest.get(`regions/${region}/subnetworks/${network}-nodes`)) === undefined) {
    await rest.mutate('POST', `regions/${region}/subnetworks`, { name: `${network}-nodes`, network: `global/networks/${network}`, ipCidrRange: cidr, region: `regions/${region}` });
  }
}

/** An instance with one interface in the seeded subnetwork and an external NAT IP. */
export async function seedInstance(rest: GceRest, options: { name: string; zone: string; network: string; region: string; machineType?: string; tags?: string[] }): Promise<SeededInstance> {
  const machineType = options.machineType ?? 'e2-medium';
  await rest.mutate('POST', `zones/${options.zone}/instances`, {
    name: options.name,
    machineType: `zones/${options.zone}/machineTypes/${machineType}`,
    canIpForward: true,
    tags: { items: options.tags ?? [] },
    disks: [{ boot: true, autoDelete: true, initializeParams: { sourceImage: 'projects/debian-cloud/global/images/family/debian-12' } }],
    networkInterfaces: [{ subnetwork: `regions/${options.region}/subnetworks/${options.network}-nodes`, accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }] }],
  });
  const instance = await rest.request<{ networkInterfaces?: Array<{ networkIP?: string; accessConfigs?: Array<{ natIP?: string }> }> }>('GET', `zones/${options.zone}/instances/${options.name}`);
  const nic = instance.networkInterfaces?.[0];
  return { name: options.name, zone: options.zone, networkIP: nic?.networkIP ?? '', natIP: nic?.accessConfigs?.[0]?.natIP, machineType };
}
