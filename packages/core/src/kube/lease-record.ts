/** The Lease port of leader election and how a Lease's spec reads as a leader-election record. */
import type { V1Lease } from '@kubernetes/client-node';

/** Reads and writes one Lease object. Errors are KubeApiError. */
export interface LeaseClient {
  /** The lease, or undefined when it does not exist. */
  get(): Promise<V1Lease | undefined>;
  create(lease: V1Lease): Promise<V1Lease>;
  /** PUT with `metadata.resourceVersion`; a stale one throws 409. */
  update(lease: V1Lease): Promise<V1Lease>;
}

/** The leader-election view of a Lease spec (client-go LeaderElectionRecord). */
export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: Date | undefined;
  renewTime: Date | undefined;
  leaseTransitions: number;
}

/** Lease times come back as strings (MicroTime is not decoded by client-node); accept both. */
export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

export function recordOf(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: toDate(spec.acquireTime),
    renewTime: toDate(spec.renewTime),
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

