/**
 * What the Nova stand-in asks the real Neutron, as the admin (like Nova's own Neutron client):
 * ports by device, create/update/delete ports, networks and floating IPs for the addresses.
 */
import type { KeystoneTokenValidator } from './keystone-token-validator.js';
import { NovaFault } from './nova-fault.js';

export interface NeutronFixedIp {
  subnet_id: string;
  ip_address: string;
}

export interface NeutronPort {
  id: string;
  network_id: string;
  mac_address: string;
  fixed_ips: NeutronFixedIp[];
  device_id: string;
  device_owner: string;
  status: string;
  project_id?: string;
  tenant_id?: string;
  security_groups?: string[];
}

export interface NeutronNetwork {
  id: string;
  name: string;
  project_id?: string;
  tenant_id?: string;
  shared?: boolean;
  'router:external'?: boolean;
}

export interface NeutronFloatingIp {
  id: string;
  floating_ip_address: string;
  fixed_ip_address: string | null;
  port_id: string | null;
}

export class NeutronForNova {
  readonly #url: string;
  readonly #tokens: KeystoneTokenValidator;

  constructor(neutronUrl: string, tokens: KeystoneTokenValidator) {
    this.#url = neutronUrl.replace(/\/+$/, '');
    this.#tokens = tokens;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await fetch(`${this.#url}/v2.0${path}`, {
        method,
        headers: { 'X-Auth-Token': await this.#tokens.serviceToken(), 'Content-Type': 'application/json', Accept: 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      if (response.status === 401 && attempt === 0) {
        this.#tokens.forgetServiceToken();
        continue;
      }
      if (response.status === 404 && method === 'GET') return undefined;
      if (response.status >= 400) throw new NeutronRefused(response.status, neutronMessage(text), `${method} /v2.0${path}`);
      return text === '' ? undefined : (JSON.parse(text) as T);
    }
    throw new NovaFault(500, 'Neutron refused the Nova stand-in\'s token');
  }

  async portsOfDevices(deviceIds: readonly string[]): Promise<NeutronPort[]> {
    if (deviceIds.length === 0) return [];
    const ports: NeutronPort[] = [];
    // Chunks keep the query string short.
    for (let index = 0; index < deviceIds.length; index += 50) {
      const query = deviceIds.slice(index, index + 50).map((id) => `device_id=${encodeURIComponent(id)}`).join('&');
      const body = await this.#call<{ ports: NeutronPort[] }>('GET', `/ports?${query}`);
      ports.push(...(body?.ports ?? []));
    }
    return ports;
  }

  async port(id: string): Promise<NeutronPort | undefined> {
    return (await this.#call<{ port: NeutronPort }>('GET', `/ports/${encodeURIComponent(id)}`))?.port;
  }

  async network(id: string): Promise<NeutronNetwork | undefined> {
    return (await this.#call<{ network: NeutronNetwork }>('GET', `/networks/${encodeURIComponent(id)}`))?.network;
  }

  async networks(ids: readonly string[]): Promise<NeutronNetwork[]> {
    if (ids.length === 0) return [];
    const query = ids.map((id) => `id=${encodeURIComponent(id)}`).join('&');
    return (await this.#call<{ networks: NeutronNetwork[] }>('GET', `/networks?${query}`))?.networks ?? [];
  }

  /** The networks a project may put a server on: its own and shared ones, not external ones. */
  async networksForProject(projectId: string): Promise<NeutronNetwork[]> {
    const all = (await this.#call<{ networks: NeutronNetwork[] }>('GET', '/networks'))?.networks ?? [];
    return all.filter((network) => network['router:external'] !== true && (network.shared === true || (network.project_id ?? network.tenant_id) === projectId));
  }

  async floatingIpsOfPorts(portIds: readonly string[]): Promise<NeutronFloatingIp[]> {
    const floatingIps: NeutronFloatingIp[] = [];
    // Chunks keep the query string short: a list of ~180 servers or more used to send Neutron
    // a request line over 8 KiB, which it refused (the server list then failed with a 500).
    for (let index = 0; index < portIds.length; index += 50) {
      const query = portIds.slice(index, index + 50).map((id) => `port_id=${encodeURIComponent(id)}`).join('&');
      floatingIps.push(...((await this.#call<{ floatingips: NeutronFloatingIp[] }>('GET', `/floatingips?${query}`))?.floatingips ?? []));
    }
    return floatingIps;
  }

  async createPort(attributes: Record<string, unknown>): Promise<NeutronPort> {
    const body = await this.#call<{ port: NeutronPort }>('POST', '/ports', { port: attributes });
    return body!.port;
  }

  async updatePort(id: string, attributes: Record<string, unknown>): Promise<NeutronPort> {
    const body = await this.#call<{ port: NeutronPort }>('PUT', `/ports/${encodeURIComponent(id)}`, { port: attributes });
    return body!.port;
  }

  async deletePort(id: string): Promise<void> {
    try {
      await this.#call('DELETE', `/ports/${encodeURIComponent(id)}`);
    } catch (error) {
      if (!(error instanceof NeutronRefused && error.status === 404)) throw error;
    }
  }
}

export class NeutronRefused extends Error {
  readonly status: number;

  constructor(status: number, message: string, operation: string) {
    super(`${operation}: Neutron answered ${status}: ${message}`);
    this.name = 'NeutronRefused';
    this.status = status;
  }
}

function neutronMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { NeutronError?: { message?: string } };
    return body.NeutronError?.message ?? text.slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}
