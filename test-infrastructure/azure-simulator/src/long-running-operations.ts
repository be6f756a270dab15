/**
 * ARM long-running operations. A PUT, DELETE or action answers 201/202 with `Azure-AsyncOperation`
 * (the operation status resource) and `Location` (the operation result) URLs. The operation stays
 * `InProgress` for a configured number of polls, then completes (the resource's provisioning state
 * becomes Succeeded, a power action reaches its final state) and reports `Succeeded`.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from './resource-id.js';

export interface OperationSpec {
  /** `Microsoft.Network` or `Microsoft.Compute` (the status URL lives under the provider). */
  namespace: string;
  location: string;
  /** What the operation result (`Location`) answers once done: a body (200) or nothing (204). */
  result: () => Json | undefined;
  /** Runs once, when the operation completes. */
  complete: () => void;
}

interface Operation extends OperationSpec {
  id: string;
  pollsLeft: number;
  startTime: string;
  endTime?: string;
}

export interface OperationUrls {
  asyncOperation: string;
  location: string;
}

export class LongRunningOperations {
  private readonly operations = new Map<string, Operation>();

  constructor(
    private readonly baseUrl: () => string,
    private readonly subscriptionId: string,
    /** How many status polls answer InProgress before the operation succeeds (0: done at once). */
    private readonly pollsBeforeDone: () => number,
  ) {}

  start(spec: OperationSpec, apiVersion: string): { id: string; urls: OperationUrls; done: boolean } {
    const id = randomUUID();
    const operation: Operation = { ...spec, id, pollsLeft: this.pollsBeforeDone(), startTime: new Date().toISOString() };
    this.operations.set(id, operation);
    if (operation.pollsLeft <= 0) this.finish(operation);
    const location = spec.location.toLowerCase().replace(/\s+/g, '');
    const base = `${this.baseUrl()}/subscriptions/${this.subscriptionId}/providers/${spec.namespace}/locations/${location}`;
    return {
      id,
      urls: {
        asyncOperation: `${base}/operations/${id}?api-version=${apiVersion}`,
        location: `${base}/operationResults/${id}?api-version=${apiVersion}`,
      },
      done: operation.endTime !== undefined,
    };
  }

  /** The operation status resource; undefined for an unknown id. */
  status(id: string): Json | undefined {
    const operation = this.poll(id);
    if (!operation) return undefined;
    const status = operation.endTime === undefined ? 'InProgress' : 'Succeeded';
    // Microsoft.Network's status resource carries only the status (AzureAsyncOperationResult);
    // Microsoft.Compute's adds the operation name and times.
    if (operation.namespace === 'Microsoft.Network') return { status };
    return {
      name: operation.id,
      status: operation.endTime === undefined ? 'InProgress' : 'Succeeded',
      startTime: operation.startTime,
      ...(operation.endTime !== undefined ? { endTime: operation.endTime } : {}),
    };
  }

  /** The operation result: still running, or its final body (undefined body: 204). */
  result(id: string): { running: true } | { running: false; body: Json | undefined } | undefined {
    const operation = this.poll(id);
    if (!operation) return undefined;
    if (operation.endTime === undefined) return { running: true };
    return { running: false, body: operation.result() };
  }

  /** Completes every unfinished operation (tests that do not poll). */
  finishAll(): void {
    for (const operation of this.operations.values()) if (operation.endTime === undefined) this.finish(operation);
  }

  private poll(id: string): Operation | undefined {
    const operation = this.operations.get(id);
    if (!operation) return undefined;
    if (operation.endTime === undefined) {
      if (operation.pollsLeft <= 0) this.finish(operation);
      else operation.pollsLeft -= 1;
    }
    return operation;
  }

  private finish(operation: Operation): void {
    operation.endTime = new Date().toISOString();
    operation.complete();
  }
}
