// Chaos against the in-repo GCE simulator (@ccm/gce-simulator; the GCP CCM must be built). The
// proxy answers Compute's own errors (503 backendError, 403/429 rateLimitExceeded with
// Retry-After) and OAuth errors on the token-url, which it faults like any other operation.
// Small scale: about 2 minutes for the file on a quiet 2-core machine. No configurable cloud call
// budget in gce.conf (the provider's own is fixed), so the call rate is reported, not checked.
import { GcpDriver } from '@ccm/cloud-provider-gcp/conformance';
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
    convergenceTimeoutMs: 180_000,
  },
  420_000,
);
