/**
 * The port pipeline: one call per port in the provider's composition root.
 *
 *   const ec2 = composeCloudPort(createSdkEc2Port(clients.ec2), {
 *     name: 'ec2',                                   // operations ec2.describeInstances, ...
 *     observer: createCloudApiObserver(context.metrics, 'aws'),
 *     budget,                                        // one CloudApiBudget per provider
 *     retry: { maxAttempts: 8 },
 *     coalesce: (inner) => ({ describeInstance: coalesceBy((id) => id, new Coalescer({ ... inner.describeInstances ... })) }),
 *   });
 *
 * Stages, outside in: coalesce -> around (the provider's own) -> retry -> budget -> fence ->
 * observe -> the port. The coalescer decides what is sent; the provider's stages see each call's
 * final outcome; retries of other retryable failures sit outside the budget, so every attempt
 * takes a token again; the budget decides when an attempt goes (and retries throttling itself,
 * so the retry stage leaves `throttled` to it); the fence refuses an attempt of a leader whose
 * lease may have expired, checked after every wait (leadership-fence.ts); the observer times
 * only the request.
 */
import type { CloudApiBudget } from './cloud-api-budget.js';
import type { CloudApiErrorKind } from './cloud-api-error.js';
import { CLOUD_API_ERROR_KINDS } from './cloud-api-error.js';
import type { CloudApiObserver } from './cloud-api-observer.js';
import { budgetCalls } from './budget-calls.js';
import { coalescePort, type CoalescedMethods } from './coalesce-port.js';
import { fenceCalls } from './fence-calls.js';
import { observeCalls } from './observe-calls.js';
import { retryCalls, type CloudRetryPolicy } from './retry-calls.js';
import { chainArounds, wrapPort, type PortAround, type PortNaming } from './wrap-port.js';

export interface CloudPortPipeline<Port> extends PortNaming<Port> {
  /** Times every request and counts failures by code (innermost). */
  observer?: CloudApiObserver;
  /** The provider's budget: rate limit, adaptive backoff, throttling retries after Retry-After. */
  budget?: CloudApiBudget;
  /** Retries of retryable failures; `throttled` is left to the budget when there is one. */
  retry?: CloudRetryPolicy;
  /** The provider's own stages (problem reporting, tracing), outermost first; outside retries. */
  around?: readonly PortAround[];
  /** Batched lookups: methods answered through coalescers whose batch calls use `port` (every other stage applied). */
  coalesce?: (port: Port) => CoalescedMethods<Port>;
}

/** Every kind but `throttled`: what the retry stage takes when a budget retries throttling. */
function withoutThrottled(kinds: readonly CloudApiErrorKind[] | undefined): CloudApiErrorKind[] {
  return (kinds ?? CLOUD_API_ERROR_KINDS).filter((kind) => kind !== 'throttled');
}

/** The stages of `pipeline` (coalescing aside), outermost first. The fence is always there (a no-op outside a fenced context). */
export function cloudPortStages<Port>(pipeline: CloudPortPipeline<Port>): PortAround[] {
  const stages: PortAround[] = [...(pipeline.around ?? [])];
  if (pipeline.retry !== undefined) {
    stages.push(retryCalls(pipeline.budget === undefined ? pipeline.retry : { ...pipeline.retry, kinds: withoutThrottled(pipeline.retry.kinds) }));
  }
  if (pipeline.budget !== undefined) stages.push(budgetCalls(pipeline.budget));
  stages.push(fenceCalls());
  if (pipeline.observer !== undefined) stages.push(observeCalls(pipeline.observer));
  return stages;
}

export function composeCloudPort<Port extends object>(port: Port, pipeline: CloudPortPipeline<Port>): Port {
  const stages = cloudPortStages(pipeline);
  const composed = wrapPort(port, chainArounds(...stages), pipeline);
  return pipeline.coalesce === undefined ? composed : coalescePort(composed, pipeline.coalesce(composed));
}
