/** Raw-HTTP helpers for unit tests: a token, ARM paths, and resource seeding with LROs finished. */
import { COMPUTE_API_VERSION, NETWORK_API_VERSION } from '../api-versions.js';
import type { AzureSimulator } from '../start-azure-simulator.js';
import { accessToken, rawRequest, type RawResponse } from './azure-clients.js';

export class ArmFixture {
  private constructor(
    readonly simulator: AzureSimulator,
    readonly token: string,
  ) {}

  static async create(simulator: AzureSimulator): Promise<ArmFixture> {
    return new ArmFixture(simulator, await accessToken(simulator));
  }

  path(resourceGroup: string, namespace: 'Microsoft.Network' | 'Microsoft.Compute', rest: string): string {
    const apiVersion = namespace === 'Microsoft.Network' ? NETWORK_API_VERSION : COMPUTE_API_VERSION;
    return `/subscriptions/${this.simulator.subscriptionId}/resourceGroups/${resourceGroup}/providers/${namespace}/${rest}${rest.includes('?') ? '&' : '?'}api-version=${apiVersion}`;
  }

  id(resourceGroup: string, namespace: string, rest: string): string {
    return `/subscriptions/${this.simulator.subscriptionId}/resourceGroups/${resourceGroup}/providers/${namespace}/${rest}`;
  }

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    return rawRequest(this.simulator, method, path, { token: this.token, ...(body !== undefined ? { body } : {}), headers });
  }

  async resourceGroup(name: string): Promise<void> {
    const response = await this.request('PUT', `/subscriptions/${this.simulator.subscriptionId}/resourcegroups/${name}?api-version=2024-03-01`, { location: this.simulator.location });
    if (response.status !== 201 && response.status !== 200) throw new Error(`resource group ${name}: ${response.status}`);
  }

  /** PUT and, for a long-running answer, poll Azure-AsyncOperation until it is done; returns the final GET. */
  async put(path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    const response = await this.request('PUT', path, body, headers);
    if (response.status >= 400) return response;
    await this.settle(response);
    return this.request('GET', path);
  }

  async delete(path: string): Promise<RawResponse> {
    const response = await this.request('DELETE', path);
    if (response.status === 202) await this.settle(response);
    return response;
  }

  async settle(response: RawResponse): Promise<void> {
    const status = response.headers['azure-asyncoperation'];
    if (typeof status !== 'string') return;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const poll = await rawRequest(this.simulator, 'GET', status, { token: this.token });
      if (poll.body?.status !== 'InProgress') return;
    }
    throw new Error('operation did not finish');
  }

  /** A VNet with one subnet `nodes` (10.240.0.0/16). */
  async network(resourceGroup: string, name = 'vnet'): Promise<string> {
    const response = await this.put(this.path(resourceGroup, 'Microsoft.Network', `virtualNetworks/${name}`), {
      location: this.simulator.location,
      properties: { addressSpace: { addressPrefixes: ['10.0.0.0/8'] }, subnets: [{ name: 'nodes', properties: { addressPrefix: '10.240.0.0/16' } }] },
    });
    if (response.status !== 200) throw new Error(`vnet: ${response.status} ${JSON.stringify(response.body)}`);
    return `${String(response.body.id)}/subnets/nodes`;
  }
}
