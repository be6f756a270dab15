/**
 * The cloud side of a benchmark row, whichever provider it is: instances for the nodes, the CCM
 * command that reaches this cloud, and the count of what the CCM asked the cloud.
 */
import type { CcmProcessSpec } from '@ccm/testing/conformance';
import type { CcmPolicy } from './ccm-policies.js';

export const BENCH_PROVIDERS = ['sandbox', 'aws', 'vsphere', 'azure', 'gcp', 'openstack'] as const;
export type BenchProvider = (typeof BENCH_PROVIDERS)[number];

/** A cloud instance as the kubelet of its node sees it. */
export interface BenchInstance {
  /** The Node name the kubelet registers. */
  name: string;
  internalIp: string;
  hostname: string;
}

export interface CloudCallTotals {
  /** Cloud API requests the cloud received (throttled ones included). */
  calls: number;
  throttled: number;
  /** Per operation, only the ones used. */
  byOperation: Record<string, number>;
}

export interface BenchCloud {
  readonly provider: BenchProvider;
  /** Instances for `count` new nodes. */
  createInstances(count: number): Promise<BenchInstance[]>;
  /** The CCM of a row with `policy`; files it needs go into `directory`. */
  ccmProcess(policy: CcmPolicy, directory: string): Promise<CcmProcessSpec>;
  /** What the CCM asked the cloud since the last reset. */
  cloudCalls(): Promise<CloudCallTotals>;
  resetCalls(): Promise<void>;
  close(): Promise<void>;
}
