// Chaos against the sandbox cloud: the CCM's cloud API budget is configured (api-qps/api-burst), so the call rate is checked against it.
import { SandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new SandboxDriver(`chaos-${process.pid}`),
  {
    seed: chaosSeed(1301),
    nodes: 50,
    services: 20,
    churnMs: 60_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 10_000,
    leaderKills: 3,
    budget: { qps: 20, burst: 20 },
    convergenceTimeoutMs: 180_000,
  },
  420_000,
);
