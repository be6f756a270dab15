import type { ProxyRecord } from '@ccm/testing/chaos';

/** The CCM's cloud API budget: a token bucket of `qps` per second holding up to `burst`. */
export interface CallBudget {
  qps: number;
  burst: number;
}

/**
 * Windows in which one replica sent more cloud requests than its token bucket allows
 * (`burst + qps * window`); the bound holds for any window, so sliding 1 s windows are checked.
 */
export function budgetExceedances(cloudRecords: readonly ProxyRecord[], budget: CallBudget, windowMs = 1_000): string[] {
  const allowed = Math.floor(budget.burst + (budget.qps * windowMs) / 1_000);
  const byReplica = new Map<string, number[]>();
  for (const record of cloudRecords) {
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

/** The highest number of requests one replica sent in any window, for the figures. */
export function peakCallRate(cloudRecords: readonly ProxyRecord[], windowMs = 1_000): number {
  const byReplica = new Map<string, number[]>();
  for (const record of cloudRecords) byReplica.set(record.replica, [...(byReplica.get(record.replica) ?? []), record.startedAt]);
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
