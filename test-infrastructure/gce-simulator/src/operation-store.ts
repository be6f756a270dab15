import type { ComputeState } from './compute-state.js';
import { type GceError, notFound } from './gce-error.js';
import { resourcePath, type ResourceScope } from './resource-links.js';

export type OperationStatus = 'PENDING' | 'RUNNING' | 'DONE';

export interface Operation extends Record<string, unknown> {
  kind: 'compute#operation';
  name: string;
  status: OperationStatus;
}

const HTTP_ERROR_MESSAGES: Record<number, string> = { 400: 'BAD REQUEST', 404: 'NOT FOUND', 409: 'CONFLICT', 412: 'PRECONDITION FAILED' };

export interface NewOperation {
  project: string;
  scope: ResourceScope;
  operationType: string;
  targetLink: string;
  targetId?: string | undefined;
  /** The operation ends in DONE with this error (the state is left unchanged by the caller). */
  error?: GceError | undefined;
}

/**
 * Operations of every scope. A mutation is applied when its call is answered; its Operation then
 * moves PENDING -> RUNNING -> DONE one step per `get`, and straight to DONE on `wait`.
 */
export class OperationStore {
  private readonly operations = new Map<string, Operation>();
  private readonly failures = new Map<string, GceError>();
  private sequence = 0;

  constructor(private readonly state: ComputeState) {}

  create(request: NewOperation): Operation {
    this.sequence += 1;
    const now = Date.now();
    const name = `operation-${now}-${this.sequence.toString(16).padStart(12, '0')}`;
    const path = resourcePath(request.project, request.scope, 'operations', name);
    const operation: Operation = {
      kind: 'compute#operation',
      id: this.state.newId(),
      name,
      operationType: request.operationType,
      targetLink: request.targetLink,
      ...(request.targetId === undefined ? {} : { targetId: request.targetId }),
      status: 'PENDING',
      user: 'gce-simulator@ccm.invalid',
      progress: 0,
      insertTime: this.state.timestamp(),
      selfLink: this.state.link(path),
    };
    if (request.scope.type === 'zone') operation['zone'] = this.state.scopeLink(request.project, request.scope);
    if (request.scope.type === 'region') operation['region'] = this.state.scopeLink(request.project, request.scope);
    this.operations.set(path, operation);
    if (request.error !== undefined) this.failures.set(path, request.error);
    return structuredClone(operation);
  }

  private advance(path: string, operation: Operation, toDone: boolean): void {
    if (operation.status === 'PENDING') {
      operation.status = 'RUNNING';
      operation['startTime'] = this.state.timestamp();
      operation['progress'] = 0;
      if (!toDone) return;
    }
    if (operation.status === 'RUNNING') {
      operation.status = 'DONE';
      operation['progress'] = 100;
      operation['endTime'] = this.state.timestamp();
      const failure = this.failures.get(path);
      if (failure !== undefined) {
        operation['httpErrorStatusCode'] = failure.httpStatus;
        operation['httpErrorMessage'] = HTTP_ERROR_MESSAGES[failure.httpStatus] ?? 'BAD REQUEST';
        operation['error'] = { errors: [{ code: failure.operationCode(), message: failure.message }] };
      }
    }
  }

  private find(path: string): Operation {
    const operation = this.operations.get(path);
    if (operation === undefined) throw notFound(path);
    return operation;
  }

  /** `get`: one step further each call. */
  get(path: string): Operation {
    const operation = this.find(path);
    this.advance(path, operation, false);
    return structuredClone(operation);
  }

  /** `wait`: returns the operation DONE. */
  wait(path: string): Operation {
    const operation = this.find(path);
    this.advance(path, operation, true);
    return structuredClone(operation);
  }

  delete(path: string): void {
    this.find(path);
    this.operations.delete(path);
    this.failures.delete(path);
  }

  /** Operations under a collection path (`projects/p/zones/z/operations`), oldest first. */
  list(collection: string): Operation[] {
    const prefix = `${collection}/`;
    return [...this.operations].filter(([path]) => path.startsWith(prefix)).map(([, operation]) => structuredClone(operation));
  }
}

