/**
 * Leader terms from the Lease's history as the API server accepted it (the kube-side proxy
 * records every lease write of every replica with its body), and the cloud writes that fall
 * outside their sender's term: two replicas acting at once.
 */
import type { ProxyRecord } from '@ccm/testing/chaos';

/** A span during which `replica` held the Lease, in proxy-clock milliseconds. */
export interface LeaseTerm {
  replica: string;
  holderIdentity: string;
  /** When the API server answered the acquiring (or renewing) write. */
  from: number;
  /** The last renewal's send time plus the lease duration, cut where another replica acquired. */
  until: number;
}

interface LeaseWrite {
  replica: string;
  holderIdentity: string;
  sentAt: number;
  acceptedAt: number;
  durationMs: number;
}

function leaseWrites(kubeRecords: readonly ProxyRecord[], leaseName: string): LeaseWrite[] {
  const writes: LeaseWrite[] = [];
  for (const record of kubeRecords) {
    if (record.status < 200 || record.status >= 300 || record.requestBody === undefined) continue;
    if (record.operation !== 'update leases' && record.operation !== 'create leases') continue;
    let lease: { metadata?: { name?: string }; spec?: { holderIdentity?: string; leaseDurationSeconds?: number } };
    try {
      lease = JSON.parse(record.requestBody) as typeof lease;
    } catch {
      continue;
    }
    if (lease.metadata?.name !== leaseName) continue;
    writes.push({
      replica: record.replica,
      holderIdentity: lease.spec?.holderIdentity ?? '',
      sentAt: record.startedAt,
      acceptedAt: record.answeredAt,
      durationMs: (lease.spec?.leaseDurationSeconds ?? 0) * 1_000,
    });
  }
  return writes.sort((left, right) => left.acceptedAt - right.acceptedAt);
}

/** The terms of every replica, oldest first. A release (empty holder) ends its writer's term. */
export function leaseTerms(kubeRecords: readonly ProxyRecord[], leaseName: string): LeaseTerm[] {
  const terms: LeaseTerm[] = [];
  let current: LeaseTerm | undefined;
  for (const write of leaseWrites(kubeRecords, leaseName)) {
    if (write.holderIdentity === '') {
      if (current !== undefined && current.replica === write.replica) current.until = Math.min(current.until, write.sentAt);
      current = undefined;
      continue;
    }
    if (current !== undefined && current.replica === write.replica && current.holderIdentity === write.holderIdentity && write.sentAt <= current.until) {
      current.until = Math.max(current.until, write.sentAt + write.durationMs);
      continue;
    }
    if (current !== undefined) current.until = Math.min(current.until, write.acceptedAt);
    current = { replica: write.replica, holderIdentity: write.holderIdentity, from: write.acceptedAt, until: write.sentAt + write.durationMs };
    terms.push(current);
  }
  return terms;
}

/** Cloud writes sent outside their sender's lease terms, in two classes. */
export interface WritesOutsideTerms {
  /**
   * Two replicas acting: the write came while another replica held the lease, or from a
   * replica that had no term that recently (a follower acting). Always a failure.
   */
  doubleActing: string[];
  /**
   * A stalled leader: the write came after the sender's own term ended (last renewal's time +
   * leaseDurationSeconds) and before anyone else acquired, within `staleGraceMs` of the end: the
   * leader had not noticed it may have lost the lease. Also a failure: core fences cloud calls at
   * the renew deadline (docs/reliability.md, findings), so none may come after the term.
   */
  afterOwnTerm: string[];
}

/** The lease invariants as violations: both classes of writes outside the writer's own term fail the run. */
export function leaseTermViolations(outside: WritesOutsideTerms): Record<string, string[]> {
  return { 'double-acting': outside.doubleActing, "writes after the writer's own lease term": outside.afterOwnTerm };
}

export function writesOutsideLeaseTerms(cloudRecords: readonly ProxyRecord[], terms: readonly LeaseTerm[], staleGraceMs = 5_000): WritesOutsideTerms {
  const result: WritesOutsideTerms = { doubleActing: [], afterOwnTerm: [] };
  for (const record of cloudRecords) {
    if (!record.write) continue;
    const inTerm = terms.some((term) => term.replica === record.replica && term.from <= record.startedAt && record.startedAt <= term.until);
    if (inTerm) continue;
    const holder = terms.find((term) => term.from <= record.startedAt && record.startedAt <= term.until);
    const own = terms.filter((term) => term.replica === record.replica && term.from <= record.startedAt).pop();
    const since = own === undefined ? 'it never held the lease before' : `its term ended ${record.startedAt - own.until} ms before`;
    const message = `${record.replica} sent ${record.operation} at ${new Date(record.startedAt).toISOString()} while ${holder === undefined ? 'no replica' : holder.replica} held the lease (${since})`;
    if (holder === undefined && own !== undefined && record.startedAt - own.until <= staleGraceMs) result.afterOwnTerm.push(message);
    else result.doubleActing.push(message);
  }
  return result;
}
