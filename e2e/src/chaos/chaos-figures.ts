import type { FaultCounts } from '@ccm/testing/chaos';

/** What one chaos run did and found, printed as one block at the end and recorded in docs/reliability.md. */
export interface ChaosFigures {
  provider: string;
  seed: number;
  nodes: { joined: number; left: number; final: number };
  services: { created: number; updated: number; deleted: number; final: number };
  cloudFaults: FaultCounts;
  kubeFaults: FaultCounts;
  cloudRequests: number;
  /** Cloud requests sent before the faults stopped (the injected faults' denominator). */
  cloudRequestsDuringFaults: number;
  cloudWrites: number;
  leaderKills: number;
  /** Kills that hit the leader the moment one of its cloud writes reached the proxy. */
  leaderKillsMidWrite: number;
  /** Leader terms found in the Lease's write history. */
  leaseTerms: number;
  replicaRestarts: number;
  /** From the end of the faults until every invariant held. */
  convergenceMs: number;
  leaks: number;
  wrongDeletions: number;
  servicesLeftWithFinalizer: number;
  doubleActing: number;
  /** Writes of a stalled leader after its own term, before anyone else acquired (a failure: listed here too). */
  writesAfterOwnTerm: string[];
  /** The worst per-replica cloud requests in any 1 s window, and the configured budget (if any). */
  peakCallsPerSecond: number;
  budget: string;
  budgetExceedances: number;
  totalMs: number;
}

const faults = (counts: FaultCounts): string =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ') || 'none';

export function formatFigures(figures: ChaosFigures): string {
  return [
    `==== chaos: ${figures.provider} (seed ${figures.seed}) ====`,
    `nodes: ${figures.nodes.joined} joined, ${figures.nodes.left} left, ${figures.nodes.final} at the end`,
    `services: ${figures.services.created} created, ${figures.services.updated} updated, ${figures.services.deleted} deleted, ${figures.services.final} at the end`,
    `cloud faults injected: ${faults(figures.cloudFaults)} (of ${figures.cloudRequestsDuringFaults} cloud requests while faults were on; ${figures.cloudRequests} requests, ${figures.cloudWrites} writes in the whole run)`,
    `kube-apiserver faults injected: ${faults(figures.kubeFaults)}`,
    `leader kills (SIGKILL): ${figures.leaderKills} (${figures.leaderKillsMidWrite} in the middle of a cloud write); replica restarts: ${figures.replicaRestarts}; lease terms: ${figures.leaseTerms}`,
    `convergence after the faults stopped: ${(figures.convergenceMs / 1_000).toFixed(1)} s; whole run ${(figures.totalMs / 1_000).toFixed(1)} s`,
    `leaks: ${figures.leaks}; wrong node deletions: ${figures.wrongDeletions}; services left with a finalizer: ${figures.servicesLeftWithFinalizer}; double-acting: ${figures.doubleActing}`,
    `writes after the writer's own lease term (stalled leader, no other holder; must be 0): ${figures.writesAfterOwnTerm.length}${figures.writesAfterOwnTerm.map((line) => `\n  ${line}`).join('')}`,
    `cloud call rate: peak ${figures.peakCallsPerSecond}/s per replica; budget ${figures.budget}; over budget: ${figures.budgetExceedances}`,
    '====',
  ].join('\n');
}
