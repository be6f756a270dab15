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
 * - `--concurrent-node-syncs=500` (upstream 1): node initializations in flight; their cloud lookups
 *   are coalesced into batch calls of up to 100 nodes, so more workers mean fuller batches rather
 *   than more calls. With 200, a storm's batches held ~65 nodes: a node's sync (its batch's round
 *   trip plus three writes) kept too few lookups queued behind the call in flight to fill the next
 *   one; with 500 every batch of a storm is full (50 calls for 5,000 nodes) and full batches go
 *   two at a time. The address refresh uses the same count (`--concurrent-node-status-updates` 0).
 * - `--concurrent-service-syncs=100` (upstream 1): load balancer updates in flight after a node
 *   change; their instance lookups are shared, so this mostly overlaps cloud latency.
 * - `--kube-api-qps=5000 --kube-api-burst=10000` (upstream 20/30): initializing a node takes three
 *   writes (the node update, the address patch, the Synced event); 5,000 nodes at 20 writes/s
 *   would take 12.5 minutes of client-side throttling alone, and at 1,000 writes/s (our earlier
 *   setting) the client's own limit was the storm's pace (about 10 s for 5,000 nodes). Above the
 *   API server's pace, the server's own limits (max requests in flight, priority and fairness)
 *   decide, as for the plain-client baseline, which runs with the same numbers.
 */
export const OUR_POLICY: CcmPolicy = {
  name: 'ours',
  label: 'ours',
  concurrentNodeSyncs: 500,
  concurrentServiceSyncs: 100,
  kubeApiQps: 5000,
  kubeApiBurst: 10000,
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
