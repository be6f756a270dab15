// Chaos against the in-repo Azure simulator (@ccm/azure-simulator, HTTPS with its own CA; the
// Azure CCM must be built). The proxy is HTTPS too (the CCM trusts its CA and the simulator's);
// it answers ARM's own errors (500/503 `{"error":{"code","message"}}`, 429 TooManyRequests /
// SubscriptionRequestsThrottled with Retry-After) and OAuth errors on Entra's token endpoint,
// faulted like any other operation (the discovery document names the proxy: X-Forwarded-Host).
// Nodes join and leave, routes follow, Services share the cluster's Standard load balancer
// (created, updated, deleted); the leader is killed during a cloud write. Refresh periods of 1 s so that deleted instances are seen within the run. The cloud call
// budget is fixed (AZURE_API_BUDGET_DEFAULTS): the call rate is checked against it.
import { AZURE_API_BUDGET_DEFAULTS, AzureDriver } from '@ccm/cloud-provider-azure/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new AzureDriver({ benchCacheTtlSeconds: 1 }),
  {
    seed: chaosSeed(1305),
    nodes: 20,
    services: 8,
    churnMs: 40_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 8_000,
    leaderKills: 3,
    budget: { qps: AZURE_API_BUDGET_DEFAULTS.qps, burst: AZURE_API_BUDGET_DEFAULTS.burst },
    convergenceTimeoutMs: 180_000,
  },
  420_000,
);
