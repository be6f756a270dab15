/**
 * The two ways the benchmark runs the sandbox CCM: our policy (batched cloud lookups, more
 * parallel workers, a higher kube client rate) and the upstream default policy (one cloud lookup
 * per node, one worker, client-go's CCM defaults), which is the reference row.
 */

export type PolicyName = 'ours' | 'upstream';

export interface CcmPolicy {
  name: PolicyName;
  /** What the table calls the row. */
  label: string;
  concurrentNodeSyncs: number;
  concurrentServiceSyncs: number;
  kubeApiQps: number;
  kubeApiBurst: number;
  /** The sandbox cloud-config `[Global] lookup-policy`. */
  lookupPolicy: 'batched' | 'single';
}

/**
 * Our flags for the benchmark, against upstream's defaults:
 * - `--concurrent-node-syncs=200` (upstream 1): node initializations in flight; their cloud lookups
 *   are coalesced into batch calls of up to 100 nodes, so more workers mean fuller batches rather
 *   than more calls. The address refresh uses the same count (`--concurrent-node-status-updates` 0).
 * - `--concurrent-service-syncs=100` (upstream 1): load balancer updates in flight after a node
 *   change; their instance lookups are shared, so this mostly overlaps cloud latency.
 * - `--kube-api-qps=1000 --kube-api-burst=2000` (upstream 20/30): initializing a node takes three
 *   writes (the node update, the address patch, the Synced event); 5,000 nodes at 20 writes/s
 *   would take 12.5 minutes of client-side throttling alone.
 */
export const OUR_POLICY: CcmPolicy = {
  name: 'ours',
  label: 'ours',
  concurrentNodeSyncs: 200,
  concurrentServiceSyncs: 100,
  kubeApiQps: 1000,
  kubeApiBurst: 2000,
  lookupPolicy: 'batched',
};

/** Upstream defaults (k8s.io/cloud-provider at HEAD): one worker each, 20/30 kube QPS, one lookup per node. */
export const UPSTREAM_POLICY: CcmPolicy = {
  name: 'upstream',
  label: 'upstream default',
  concurrentNodeSyncs: 1,
  concurrentServiceSyncs: 1,
  kubeApiQps: 20,
  kubeApiBurst: 30,
  lookupPolicy: 'single',
};

export function policyFlags(policy: CcmPolicy): string[] {
  return [
    `--concurrent-node-syncs=${policy.concurrentNodeSyncs}`,
    `--concurrent-service-syncs=${policy.concurrentServiceSyncs}`,
    `--kube-api-qps=${policy.kubeApiQps}`,
    `--kube-api-burst=${policy.kubeApiBurst}`,
  ];
}
