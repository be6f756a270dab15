import type { SandboxCloudAdmin, SandboxCloudSettings } from './sandbox-cloud-admin.js';
import type { SandboxCloudState } from './sandbox-cloud-state.js';
import type { InjectedErrorRule, RateLimit, SandboxCallCounts, SandboxRequestGate } from './sandbox-request-gate.js';
import type {
  CreateInstanceRequest,
  CreateLoadBalancerRequest,
  CreateRouteRequest,
  SandboxCloudSnapshot,
  SandboxInstance,
  SandboxLoadBalancer,
  SandboxRoute,
  UpdateInstanceRequest,
} from './sandbox-types.js';

/** `SandboxCloudAdmin` straight on a state and a gate (what the admin HTTP routes call too). */
export class InProcessSandboxAdmin implements SandboxCloudAdmin {
  readonly #state: SandboxCloudState;
  readonly #gate: SandboxRequestGate;

  constructor(state: SandboxCloudState, gate: SandboxRequestGate) {
    this.#state = state;
    this.#gate = gate;
  }

  async createInstance(request: CreateInstanceRequest): Promise<SandboxInstance> {
    return this.#state.createInstance(request);
  }
  async getInstance(id: string): Promise<SandboxInstance> {
    return this.#state.getInstance(id);
  }
  async listInstances(): Promise<SandboxInstance[]> {
    return this.#state.listInstances();
  }
  async updateInstance(id: string, update: UpdateInstanceRequest): Promise<SandboxInstance> {
    return this.#state.updateInstance(id, update);
  }
  async stopInstance(id: string): Promise<SandboxInstance> {
    return this.#state.stopInstance(id);
  }
  async startInstance(id: string): Promise<SandboxInstance> {
    return this.#state.startInstance(id);
  }
  async deleteInstance(id: string, options: { purge?: boolean } = {}): Promise<void> {
    this.#state.deleteInstance(id, options);
  }
  async listLoadBalancers(): Promise<SandboxLoadBalancer[]> {
    return this.#state.listLoadBalancers();
  }
  async createLoadBalancer(request: CreateLoadBalancerRequest): Promise<SandboxLoadBalancer> {
    return this.#state.createLoadBalancer(request);
  }
  async deleteLoadBalancer(name: string): Promise<void> {
    this.#state.deleteLoadBalancer(name);
  }
  async listRoutes(): Promise<SandboxRoute[]> {
    return this.#state.listRoutes();
  }
  async createRoute(request: CreateRouteRequest): Promise<SandboxRoute> {
    return this.#state.createRoute(request);
  }
  async deleteRoute(id: string): Promise<void> {
    this.#state.deleteRoute(id);
  }
  async snapshot(): Promise<SandboxCloudSnapshot> {
    return this.#state.snapshot();
  }
  async calls(): Promise<SandboxCallCounts> {
    return this.#gate.calls();
  }
  async resetCalls(): Promise<void> {
    this.#gate.resetCounters();
  }
  async settings(): Promise<SandboxCloudSettings> {
    return { latencyMs: this.#gate.latencyMs, rateLimit: this.#gate.rateLimit(), errorRate: this.#gate.errorRate };
  }
  async setLatency(latencyMs: number): Promise<void> {
    this.#gate.setLatency(latencyMs);
  }
  async setRateLimit(rateLimit: RateLimit | undefined): Promise<void> {
    this.#gate.setRateLimit(rateLimit);
  }
  async setErrorRate(errorRate: number, seed?: number): Promise<void> {
    this.#gate.setErrorRate(errorRate, seed);
  }
  async injectErrors(rule: InjectedErrorRule): Promise<void> {
    this.#gate.injectErrors(rule);
  }
  async clearInjectedErrors(): Promise<void> {
    this.#gate.clearInjectedErrors();
  }
  async reset(): Promise<void> {
    this.#state.clear();
    this.#gate.resetCounters();
    this.#gate.clearInjectedErrors();
  }
}
