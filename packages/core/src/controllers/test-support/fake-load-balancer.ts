/**
 * An in-memory LoadBalancer for service controller tests, modelled on upstream `fake/fake.go`:
 * it keeps balancers by name, logs calls (`get`, `create`, `update`, `delete`), records Ensure and
 * Update calls with their hosts, supports error injection per method and async hooks (to
 * interleave a service sync with a slow node sync).
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { defaultLoadBalancerName, type LoadBalancer, type LoadBalancerStatus } from '../../provider/load-balancer.js';
import { getLoadBalancerSourceRanges } from '../service/service-helpers.js';

export interface UpdateBalancerCall {
  service: V1Service;
  hosts: V1Node[];
}

export interface FakeBalancer {
  name: string;
  region: string;
  ports: number[];
  hosts: string[];
  sourceRanges: string[];
}

export type FakeLoadBalancerMethod = 'get' | 'ensure' | 'update' | 'delete';

export class FakeLoadBalancer implements LoadBalancer {
  region = 'us-central';
  externalIp = '1.2.3.4';
  /** Overrides `exists` in getLoadBalancer (otherwise: a balancer with the name is stored). */
  exists: boolean | undefined;
  /** Errors thrown by a method until cleared (upstream `Err`, but per method). */
  readonly errors: Partial<Record<FakeLoadBalancerMethod, Error>> = {};
  /** Parse source ranges in Ensure like real providers do (a bad annotation fails the call). */
  validateSourceRanges = false;
  /** Awaited at the start of ensure/update (after the call is recorded). */
  onEnsure: ((call: UpdateBalancerCall) => void | Promise<void>) | undefined;
  onUpdate: ((call: UpdateBalancerCall) => void | Promise<void>) | undefined;
  /** Status returned by Ensure; default one ingress with {@link externalIp}. */
  ensureStatus: ((service: V1Service) => LoadBalancerStatus | undefined) | undefined;

  readonly balancers = new Map<string, FakeBalancer>();
  readonly calls: string[] = [];
  readonly ensureCalls: UpdateBalancerCall[] = [];
  readonly updateCalls: UpdateBalancerCall[] = [];
  readonly deleteCalls: V1Service[] = [];

  getLoadBalancerName(_clusterName: string, service: V1Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(clusterName: string, service: V1Service): Promise<{ status: LoadBalancerStatus | undefined; exists: boolean }> {
    this.calls.push('get');
    if (this.errors.get !== undefined) throw this.errors.get;
    const exists = this.exists ?? this.balancers.has(this.getLoadBalancerName(clusterName, service));
    return { status: exists ? { ingress: [{ ip: this.externalIp }] } : undefined, exists };
  }

  async ensureLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[]): Promise<LoadBalancerStatus> {
    this.calls.push('create');
    const call = { service, hosts: [...nodes] };
    this.ensureCalls.push(call);
    await this.onEnsure?.(call);
    if (this.errors.ensure !== undefined) throw this.errors.ensure;
    const sourceRanges = this.validateSourceRanges ? getLoadBalancerSourceRanges(service) : [];
    const name = this.getLoadBalancerName(clusterName, service);
    this.balancers.set(name, {
      name,
      region: this.region,
      ports: (service.spec?.ports ?? []).map((port) => port.port),
      hosts: nodes.map((node) => node.metadata?.name ?? ''),
      sourceRanges,
    });
    return this.ensureStatus !== undefined ? (this.ensureStatus(service) as LoadBalancerStatus) : { ingress: [{ ip: this.externalIp }] };
  }

  async updateLoadBalancer(clusterName: string, service: V1Service, nodes: V1Node[]): Promise<void> {
    this.calls.push('update');
    const call = { service, hosts: [...nodes] };
    this.updateCalls.push(call);
    await this.onUpdate?.(call);
    if (this.errors.update !== undefined) throw this.errors.update;
    const balancer = this.balancers.get(this.getLoadBalancerName(clusterName, service));
    if (balancer !== undefined) balancer.hosts = nodes.map((node) => node.metadata?.name ?? '');
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: V1Service): Promise<void> {
    this.calls.push('delete');
    this.deleteCalls.push(service);
    if (this.errors.delete !== undefined) throw this.errors.delete;
    this.balancers.delete(this.getLoadBalancerName(clusterName, service));
  }

  /** Forgets recorded calls (not the balancers). */
  clearCalls(): void {
    this.calls.length = 0;
    this.ensureCalls.length = 0;
    this.updateCalls.length = 0;
    this.deleteCalls.length = 0;
  }
}
