/**
 * An in-memory SandboxCloudPort: @ccm/testing's `SandboxCloudState` (the sandbox cloud's own
 * rules) without HTTP, with a call log and failures injected per operation. Errors are the
 * `SandboxApiError`s the HTTP adapter would throw for the same answer.
 */
import { SandboxCloudError, SandboxCloudState, type SandboxCloudStateOptions } from '@ccm/testing';
import { SandboxApiError } from '../../src/ports/sandbox-api-error.js';
import type {
  CloudInstance,
  CloudLoadBalancer,
  CloudLoadBalancerChanges,
  CloudLoadBalancerSpec,
  CloudRoute,
  CloudRouteSpec,
  SandboxCloudPort,
  SandboxCloudPortOperation,
} from '../../src/ports/sandbox-cloud-port.js';
import { sandboxApiErrorKind, toCloudInstance, toCloudLoadBalancer, toCloudRoute } from '../../src/ports/sdk/http-sandbox-cloud-port.js';

export class FakeSandboxCloud implements SandboxCloudPort {
  /** The cloud behind the port: tests create instances and read results here. */
  readonly state: SandboxCloudState;
  readonly calls: Array<{ operation: SandboxCloudPortOperation; input: unknown }> = [];
  readonly #failures = new Map<SandboxCloudPortOperation, SandboxApiError[]>();

  constructor(options: SandboxCloudStateOptions = {}) {
    this.state = new SandboxCloudState(options);
  }

  /** The next `times` calls of `operation` fail with `error` (before reaching the state). */
  failNext(operation: SandboxCloudPortOperation, error: SandboxApiError, times = 1): void {
    this.#failures.set(operation, [...(this.#failures.get(operation) ?? []), ...Array.from({ length: times }, () => error)]);
  }

  count(operation: SandboxCloudPortOperation): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  /** Operations that change the cloud, in order. */
  writes(): SandboxCloudPortOperation[] {
    return this.calls.map((call) => call.operation).filter((operation) => !/^(get|find|batchGet|list)/.test(operation));
  }

  getInstance(id: string): Promise<CloudInstance | undefined> {
    return this.#optional('getInstance', id, () => toCloudInstance(this.state.getInstance(id)));
  }

  findInstancesByName(name: string): Promise<CloudInstance[]> {
    return this.#call('findInstancesByName', name, () => this.state.listInstances({ name }).map(toCloudInstance));
  }

  batchGetInstances(lookup: { ids: string[]; names: string[] }): Promise<CloudInstance[]> {
    return this.#call('batchGetInstances', lookup, () => this.state.batchGetInstances(lookup).instances.map(toCloudInstance));
  }

  getLoadBalancer(name: string): Promise<CloudLoadBalancer | undefined> {
    return this.#optional('getLoadBalancer', name, () => toCloudLoadBalancer(this.state.getLoadBalancer(name)));
  }

  createLoadBalancer(spec: CloudLoadBalancerSpec): Promise<CloudLoadBalancer> {
    return this.#call('createLoadBalancer', spec, () => toCloudLoadBalancer(this.state.createLoadBalancer(spec)));
  }

  updateLoadBalancer(name: string, changes: CloudLoadBalancerChanges): Promise<CloudLoadBalancer> {
    return this.#call('updateLoadBalancer', { name, changes }, () => toCloudLoadBalancer(this.state.updateLoadBalancer(name, changes)));
  }

  setLoadBalancerBackends(name: string, instanceIds: string[]): Promise<CloudLoadBalancer> {
    return this.#call('setLoadBalancerBackends', { name, instanceIds }, () => toCloudLoadBalancer(this.state.updateLoadBalancer(name, { backendInstanceIds: instanceIds })));
  }

  async deleteLoadBalancer(name: string): Promise<void> {
    await this.#call('deleteLoadBalancer', name, () => this.state.deleteLoadBalancer(name));
  }

  listRoutes(tags: Record<string, string>): Promise<CloudRoute[]> {
    return this.#call('listRoutes', tags, () => this.state.listRoutes({ tags }).map(toCloudRoute));
  }

  createRoute(spec: CloudRouteSpec): Promise<CloudRoute> {
    return this.#call('createRoute', spec, () => toCloudRoute(this.state.createRoute(spec)));
  }

  async deleteRoute(id: string, requireTags: Record<string, string>): Promise<void> {
    await this.#call('deleteRoute', { id, requireTags }, () => this.state.deleteRoute(id, { requireTags }));
  }

  /** A lookup of one thing: `undefined` when the cloud says NotFound, as the HTTP adapter answers. */
  async #optional<T>(operation: SandboxCloudPortOperation, input: unknown, run: () => T): Promise<T | undefined> {
    try {
      return await this.#call(operation, input, run);
    } catch (error) {
      if (error instanceof SandboxApiError && error.kind === 'NotFound') return undefined;
      throw error;
    }
  }

  /** Logs the call, throws an injected failure, runs it against the state and maps the state's errors. */
  async #call<T>(operation: SandboxCloudPortOperation, input: unknown, run: () => T): Promise<T> {
    this.calls.push({ operation, input: structuredClone(input) });
    const injected = this.#failures.get(operation)?.shift();
    if (injected !== undefined) throw injected;
    try {
      return run();
    } catch (error) {
      if (!(error instanceof SandboxCloudError)) throw error;
      throw new SandboxApiError(sandboxApiErrorKind(error.status, error.code), operation, error.message, { status: error.status, code: error.code, cause: error });
    }
  }
}
