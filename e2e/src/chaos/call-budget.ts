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
 * ARM's long-running-operation polls (and the final read of the resource after a PUT or DELETE
 * answered 201/202: `lroFinalReads`), and the OAuth token endpoints (the credential layer, below
 * the port pipeline: Google's `token-url`, Entra's `entra.*`, Keystone's `POST .../auth/tokens`),
 * and OpenStack's further pages (`marker=`).
 */
const CONTINUATION = new RegExp(
  [
    '^POST .*/operations/\\{name\\}/wait$',
    '^POST /?token$',
    '^entra\\.',
    '^identity POST .*/auth/tokens$',
    '^GET .*/(operations|operationResults|operationStatuses)(/|$)',
  ].join('|'),
);

export function isBudgetContinuation(record: Pick<ProxyRecord, 'operation' | 'path'>): boolean {
  return CONTINUATION.test(record.operation) || /[?&](pageToken|\$skiptoken|marker)=/i.test(record.path);
}

/**
 * ARM long-running operations: a PUT/PATCH/DELETE answered 201 or 202 is polled, then the SDK
 * reads the resource at its own URL once (final-state-via the original URI). That first GET of
 * the same path by the same replica after such an answer is part of the call.
 */
export function lroFinalReads(cloudRecords: readonly ProxyRecord[]): Set<ProxyRecord> {
  const pending = new Set<string>();
  const finals = new Set<ProxyRecord>();
  for (const record of [...cloudRecords].sort((left, right) => left.startedAt - right.startedAt)) {
    const key = `${record.replica} ${record.path.split('?')[0] ?? ''}`;
    const method = record.method.toUpperCase();
    if (['PUT', 'PATCH', 'DELETE'].includes(method) && (record.status === 201 || record.status === 202)) pending.add(key);
    else if (method === 'GET' && pending.delete(key)) finals.add(record);
  }
  return finals;
}

/** The requests that took a token of the budget, per replica, in time order. */
function budgetedStartTimes(cloudRecords: readonly ProxyRecord[]): Map<string, number[]> {
  const finals = lroFinalReads(cloudRecords);
  const byReplica = new Map<string, number[]>();
  for (const record of cloudRecords) {
    if (isBudgetContinuation(record) || finals.has(record)) continue;
    const times = byReplica.get(record.replica) ?? [];
    times.push(record.startedAt);
    byReplica.set(record.replica, times);
  }
  for (const times of byReplica.values()) times.sort((left, right) => left - right);
  return byReplica;
}

/**
 * Windows in which one replica started more cloud calls than its token bucket allows
 * (`burst + qps * window`); the bound holds for any window, so sliding 1 s windows are checked.
 * Continuations of a call (`isBudgetContinuation`, `lroFinalReads`) are not counted.
 *
 * The proxy sees when a request arrives, the budget when it granted the token: a request may wait
 * in between (the SDK acquiring an OAuth token, a connection, a busy event loop), which moves it
 * later and can pack requests granted over a longer span into one window. With `sendDelayMs` the
 * bound is the tokens grantable over the window plus that delay: `burst + qps * (window +
 * sendDelay)`.
 */
export function budgetExceedances(cloudRecords: readonly ProxyRecord[], budget: CallBudget, windowMs = 1_000, sendDelayMs = 0): string[] {
  const allowed = Math.floor(budget.burst + (budget.qps * (windowMs + sendDelayMs)) / 1_000);
  const violations: string[] = [];
  for (const [replica, times] of budgetedStartTimes(cloudRecords)) {
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
  let peak = 0;
  for (const times of budgetedStartTimes(cloudRecords).values()) {
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start++;
      peak = Math.max(peak, end - start + 1);
    }
  }
  return peak;
}
