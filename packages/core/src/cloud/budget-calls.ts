/**
 * The budget stage: every attempt takes a token from the provider's `CloudApiBudget` (rate limit
 * with adaptive backoff); the budget retries throttled attempts itself, after Retry-After.
 */
import type { CloudApiBudget } from './cloud-api-budget.js';
import type { PortAround } from './wrap-port.js';

export function budgetCalls(budget: CloudApiBudget): PortAround {
  return (call, invoke) => budget.call(call.operation, () => invoke(), call.signal === undefined ? {} : { signal: call.signal });
}
