import type { ProxyRecord } from '@ccm/testing/chaos';

/**
 * The CCM's cloud API budget: a token bucket of `qps` per second holding up to `burst` (the
 * sandbox's `api-qps`/`api-burst` in its cloud config; the other providers' fixed budgets,
 * `<PROVIDER>_API_BUDGET_DEFAULTS`).
 */
export interface CallBudget {
  qps: number;
  burst: number;
}

/**
 * Requests that belong to a call which already took its token, or that the budget does not
 * cover by design: GCE operation waits (an insert or delete is one call: the request, then its
 * operation's `wait` until DONE), further pages of a list (`pageToken`, ARM's `$skiptoken`),
 * ARM's long-running-operation polls, and the OAuth token endpoints (the credential layer, below
 * the port pipeline: Google's `token-url`, Entra's `entra.*`).
 */
const CONTINUATION = new RegExp(
  [
    '^POST .*/operations/\\{name\\}/wait$',
    '^POST /?token$',
    '^entra\\.',
    '^GET .*/(operations|operationResults|operationStatuses)(/|$)',
  ].join('|'),
);

export function isBudgetContinuation(record: Pick<ProxyRecord, 'operation' | 'path'>): boolean {
  return CONTINUATION.test(record.operation) || /[?&](pageToken|\$skiptoken)=/i.test(record.path);
}

/**
 * Windows in which one replica started more cloud calls than its token bucket allows
 * (`burst + qps * window`); the bound holds for any window, so sliding 1 s windows are checked.
 * Continuations of a call (`isBudgetContinuation`) are not counted.
 */
export function budgetExceedances(cloudRecords: readonly ProxyRecord[], budget: CallBudget, windowMs = 1_000): string[] {
  const allowed = Math.floor(budget.burst + (budget.qps * windowMs) / 1_000);
  const byReplica = new Map<string, number[]>();
  for (const record of cloudRecords) {
    if (isBudgetContinuation(record)) continue;
    const times = byReplica.get(record.replica) ?? [];
    times.push(record.startedAt);
    byReplica.set(record.replica, times);
  }
  const violations: string[] = [];
  for (const [replica, times] of byReplica) {
    times.sort((left, right) => left - right);
    let start = 0;
    let worst = 0;
    let worstAt = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start++;
      const count = end - start + 1;
      if (count > worst) {
        worst = count;
        worstAt = times[start] ?? 0;
      }
    }
    if (worst > allowed) violations.push(`${replica} sent ${worst} cloud requests within ${windowMs} ms from ${new Date(worstAt).toISOString()} (budget allows ${allowed})`);
  }
  return violations;
}

/** The highest number of calls (continuations not counted) one replica started in any window, for the figures. */
export function peakCallRate(cloudRecords: readonly ProxyRecord[], windowMs = 1_000): number {
  const byReplica = new Map<string, number[]>();
  for (const record of cloudRecords) {
    if (isBudgetContinuation(record)) continue;
    byReplica.set(record.replica, [...(byReplica.get(record.replica) ?? []), record.startedAt]);
  }
  let peak = 0;
  for (const times of byReplica.values()) {
    times.sort((left, right) => left - right);
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start++;
      peak = Math.max(peak, end - start + 1);
    }
  }
  return peak;
}
