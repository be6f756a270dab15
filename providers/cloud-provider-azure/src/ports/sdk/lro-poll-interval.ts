/**
 * How the SDK adapters wait for ARM's long-running operations: with the SDK's own pollers
 * (`poll()`), first after `LRO_FIRST_POLL_MS`, then four times later each time up to
 * `LRO_POLL_INTERVAL_MS`. Most Network writes finish within a poll or two; a short first wait
 * makes a write's end (and the next step of a reconcile) follow ARM closely without polling a
 * slow operation often.
 */
import { sleepOrThrowOnAbort } from '@ccm/core/util';

export const LRO_FIRST_POLL_MS = 25;
export const LRO_POLL_INTERVAL_MS = 500;

/** The delays between polls: 25, 100, 400, 500, 500, ... ms. */
export function pollDelays(): () => number {
  let next = LRO_FIRST_POLL_MS;
  return () => {
    const current = next;
    next = Math.min(next * 4, LRO_POLL_INTERVAL_MS);
    return current;
  };
}

/** A poller of @azure/core-lro 2 (arm-network). `poll()` throws when the operation failed. */
export interface SimplePoller<Result> {
  poll(options?: { abortSignal?: AbortSignal }): Promise<void>;
  isDone(): boolean;
  getResult(): Result | undefined;
  getOperationState(): { status: string; error?: Error };
}

/** A poller of @azure/core-lro 3 (arm-compute). `poll()` throws when the operation failed. */
export interface PromisePoller<Result> {
  submitted(): Promise<void>;
  poll(options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  readonly isDone: boolean;
  readonly result: Result | undefined;
  readonly operationState: { status: string; error?: Error } | undefined;
}

/** A finished operation that did not succeed is an error (as the SDK's pollUntilDone has it). */
function checkSucceeded(state: { status: string; error?: Error } | undefined): void {
  if (state?.status === 'failed') throw state.error ?? new Error('the long-running operation failed');
  if (state?.status === 'canceled') throw new Error('the long-running operation was canceled');
}

export async function pollSimplePoller<Result>(poller: SimplePoller<Result>, signal?: AbortSignal): Promise<Result | undefined> {
  const delay = pollDelays();
  while (!poller.isDone()) {
    await sleepOrThrowOnAbort(delay(), signal);
    await poller.poll(signal === undefined ? {} : { abortSignal: signal });
  }
  checkSucceeded(poller.getOperationState());
  return poller.getResult();
}

export async function pollPromisePoller<Result>(poller: PromisePoller<Result>, signal?: AbortSignal): Promise<Result | undefined> {
  await poller.submitted();
  const delay = pollDelays();
  while (!poller.isDone) {
    await sleepOrThrowOnAbort(delay(), signal);
    await poller.poll(signal === undefined ? {} : { abortSignal: signal });
  }
  checkSucceeded(poller.operationState);
  return poller.result;
}
