// Chaos against the in-repo GCE simulator (@ccm/gce-simulator; the GCP CCM must be built). The
// proxy answers Compute's own errors (503 backendError, 403/429 rateLimitExceeded with
// Retry-After) and OAuth errors on the token-url, which it faults like any other operation.
// Small scale: about 2 minutes for the file on a quiet 2-core machine. The cloud call budget is
// fixed (GCE_API_BUDGET_DEFAULTS, not in gce.conf): the call rate is checked against it.
import { GCE_API_BUDGET_DEFAULTS, GcpDriver } from '@ccm/cloud-provider-gcp/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new GcpDriver(),
  {
    seed: chaosSeed(1304),
    nodes: 20,
    services: 8,
    churnMs: 40_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 8_000,
    leaderKills: 3,
    budget: { qps: GCE_API_BUDGET_DEFAULTS.qps, burst: GCE_API_BUDGET_DEFAULTS.burst },
    convergenceTimeoutMs: 180_000,
  },
  420_000,
);
