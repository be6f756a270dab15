/**
 * A reverse proxy between the CCM and a cloud simulator that counts what the CCM asks: every
 * request is named by the driver's `operationOf` (the AWS `Action=`, the vSphere SOAP method) and
 * counted before it is forwarded unchanged. It is `@ccm/testing/chaos`'s fault-injecting proxy
 * with no faults (one proxy for the benchmark and the chaos suite): HTTPS targets get an HTTPS
 * proxy with a certificate of its own (the CCM is told to trust it); the proxy trusts the simulator's CA.
 */
import { FaultInjectingProxy, SANDBOX_FAULTS } from '@ccm/testing/chaos';
import type { CloudEndpoint } from '@ccm/testing/conformance';

export interface ProxyCounts {
  /** Requests the CCM sent (forwarded or not). */
  total: number;
  /** Answers with HTTP 429 or 503 (the cloud asking to slow down). */
  throttled: number;
  byOperation: Record<string, number>;
}

export interface CountingProxy {
  /** Where the CCM must send its cloud requests. */
  readonly url: string;
  /** PEM of the proxy's certificate (HTTPS only): the CCM's CA file. */
  readonly certificate: string | undefined;
  counts(): ProxyCounts;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(endpoint: CloudEndpoint): Promise<CountingProxy> {
  // No plan: the flavor's error answers are never used.
  const proxy = new FaultInjectingProxy({ upstream: endpoint.url, ...(endpoint.ca === undefined ? {} : { upstreamCa: endpoint.ca }), operationOf: endpoint.operationOf, flavor: SANDBOX_FAULTS });
  const url = await proxy.listen('ccm');
  return {
    url,
    certificate: proxy.certificate,
    counts: () => {
      const counts: ProxyCounts = { total: 0, throttled: 0, byOperation: {} };
      for (const record of proxy.records()) {
        counts.total++;
        if (record.status === 429 || record.status === 503) counts.throttled++;
        counts.byOperation[record.operation] = (counts.byOperation[record.operation] ?? 0) + 1;
      }
      return counts;
    },
    reset: () => proxy.clearRecords(),
    close: () => proxy.close(),
  };
}
