/**
 * The observe stage: every call that reaches it is timed and, when it fails, counted with its
 * error code (`createCloudApiObserver`'s metrics, labelled with the call's operation name).
 * Innermost in `composeCloudPort`, so each attempt the budget sends is observed once and token
 * waits do not count as API latency.
 */
import type { CloudApiObserver } from './cloud-api-observer.js';
import type { PortAround } from './wrap-port.js';

export function observeCalls(observer: CloudApiObserver): PortAround {
  return (call, invoke) => observer.observe(call.operation, invoke, call.args);
}
