// Chaos against moto_server (needs `moto_server` on PATH; fails under CI=true without it). The AWS
// CCM's cloud call budget is fixed (AWS_API_BUDGET_DEFAULTS, not in cloud-config): the call rate
// is checked against it.
import { AWS_API_BUDGET_DEFAULTS, AwsDriver } from '@ccm/cloud-provider-aws/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new AwsDriver(`chaos-${process.pid}`),
  {
    seed: chaosSeed(1302),
    nodes: 50,
    services: 20,
    churnMs: 60_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 10_000,
    leaderKills: 3,
    budget: { qps: AWS_API_BUDGET_DEFAULTS.qps, burst: AWS_API_BUDGET_DEFAULTS.burst },
    convergenceTimeoutMs: 240_000,
  },
  480_000,
);
