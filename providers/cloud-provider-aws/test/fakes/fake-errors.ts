/** Errors the fakes throw: the same AwsApiError the SDK adapters produce for that AWS code. */
import type { AwsApiError } from '../../src/errors.js';
import { toAwsApiError } from '../../src/ports/sdk/sdk-errors.js';

export function awsError(operation: string, code: string, message = code, httpStatus = 400): AwsApiError {
  return toAwsApiError(operation, Object.assign(new Error(message), { name: code, Code: code, $metadata: { httpStatusCode: httpStatus } }));
}

/** Records calls and lets a test make the next call(s) of an operation fail. */
export class CallLog {
  readonly calls: Array<{ operation: string; input: unknown }> = [];
  readonly #failures = new Map<string, unknown[]>();

  record(operation: string, input: unknown): void {
    this.calls.push({ operation, input: structuredClone(input) });
    const queue = this.#failures.get(operation);
    const failure = queue?.shift();
    if (failure !== undefined) throw failure;
  }

  failNext(operation: string, error: unknown, times = 1): void {
    const queue = this.#failures.get(operation) ?? [];
    for (let index = 0; index < times; index++) queue.push(error);
    this.#failures.set(operation, queue);
  }

  count(operation: string): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  operations(): string[] {
    return this.calls.map((call) => call.operation);
  }

  /** Operations that change something (everything but describe/list calls). */
  mutations(): string[] {
    return this.operations().filter((operation) => !/\.describe/.test(operation));
  }

  inputs(operation: string): unknown[] {
    return this.calls.filter((call) => call.operation === operation).map((call) => call.input);
  }

  clear(): void {
    this.calls.length = 0;
  }
}
