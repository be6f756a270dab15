/** Types and the client of the vCenter simulator's /admin endpoints (see e2e/vcsim/main.go). */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface VcsimReference {
  type: string;
  value: string;
}

export interface VcsimNamedObject {
  name: string;
  ref: VcsimReference;
  parent?: VcsimReference;
}

export interface VcsimGuestNic {
  network: string;
  ipAddress: string[];
  deviceConfigId: number;
  macAddress?: string;
}

export interface VcsimVm {
  name: string;
  ref: VcsimReference;
  uuid: string;
  instanceUuid: string;
  powerState: string;
  host: VcsimNamedObject;
  resourcePool: VcsimReference;
  datacenter: string;
  hostName: string;
  ipAddress: string;
  net: VcsimGuestNic[];
  numCpu: number;
  memoryMB: number;
  guestId: string;
}

export interface VcsimInventory {
  datacenters: VcsimNamedObject[];
  clusters: VcsimNamedObject[];
  hosts: VcsimNamedObject[];
  folders: VcsimNamedObject[];
  resourcePools: VcsimNamedObject[];
  virtualMachines: VcsimVm[];
}

export interface VcsimGuest {
  hostName?: string;
  ipAddress?: string;
  net?: VcsimGuestNic[];
}

export interface VcsimCreateVm {
  name: string;
  datacenter?: string;
  cluster?: string;
  host?: string;
  numCpu?: number;
  memoryMB?: number;
  guestId?: string;
  powerOn?: boolean;
  guest?: VcsimGuest;
}

/** The simulator's /admin endpoints (see main.go). */
export class VcsimAdmin {
  readonly #baseUrl: string;
  readonly #ca: string | undefined;

  constructor(baseUrl: string, ca: string | undefined) {
    this.#baseUrl = baseUrl;
    this.#ca = ca;
  }

  inventory(): Promise<VcsimInventory> {
    return this.#request('GET', '/inventory') as Promise<VcsimInventory>;
  }

  async vm(name: string): Promise<VcsimVm> {
    const found = (await this.inventory()).virtualMachines.find((vm) => vm.name === name);
    if (found === undefined) throw new Error(`vcsim has no VM named ${name}`);
    return found;
  }

  createVm(spec: VcsimCreateVm): Promise<VcsimVm> {
    return this.#request('POST', '/vms', spec) as Promise<VcsimVm>;
  }

  async powerOff(name: string): Promise<void> {
    await this.#request('POST', `/vms/${encodeURIComponent(name)}/power-off`);
  }

  async powerOn(name: string): Promise<void> {
    await this.#request('POST', `/vms/${encodeURIComponent(name)}/power-on`);
  }

  async suspend(name: string): Promise<void> {
    await this.#request('POST', `/vms/${encodeURIComponent(name)}/suspend`);
  }

  async destroy(name: string): Promise<void> {
    await this.#request('POST', `/vms/${encodeURIComponent(name)}/destroy`);
  }

  setGuest(name: string, guest: VcsimGuest): Promise<VcsimVm> {
    return this.#request('POST', `/vms/${encodeURIComponent(name)}/guest`, guest) as Promise<VcsimVm>;
  }

  async setExtraConfig(name: string, values: Record<string, string>): Promise<void> {
    await this.#request('POST', `/vms/${encodeURIComponent(name)}/extra-config`, values);
  }

  /** From now on SOAP Login accepts only these credentials. */
  async setCredentials(username: string, password: string): Promise<void> {
    await this.#request('POST', '/credentials', { username, password });
  }

  /** Ends every SOAP session; returns how many there were. */
  async terminateSessions(): Promise<number> {
    const result = (await this.#request('POST', '/sessions/terminate')) as { terminated: number };
    return result.terminated;
  }

  #request(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(`${this.#baseUrl}${path}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method,
          headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          ...(this.#ca === undefined ? {} : { ca: this.#ca }),
          timeout: 15_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              reject(new Error(`vcsim admin ${method} ${path}: HTTP ${response.statusCode} ${text}`));
              return;
            }
            if ((response.statusCode ?? 500) >= 300) {
              reject(new Error(`vcsim admin ${method} ${path}: HTTP ${response.statusCode} ${(parsed as { error?: string }).error ?? text}`));
              return;
            }
            resolve(parsed);
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`vcsim admin ${method} ${path}: timed out`)));
      request.on('error', reject);
      request.end(payload);
    });
  }
}
