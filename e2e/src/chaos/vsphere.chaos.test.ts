// Chaos against the govmomi vCenter simulator (the Go module e2e/vcsim; fails under CI=true when Go
// is missing). vSphere has no load balancers or routes (upstream needs NSX-T): nodes join and leave,
// the leader is killed during node initialization. The cloud call budget is fixed
// (VSPHERE_API_BUDGET_DEFAULTS): the call rate is checked against it.
import { VSPHERE_API_BUDGET_DEFAULTS, VsphereDriver } from '@ccm/cloud-provider-vsphere/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new VsphereDriver(),
  {
    seed: chaosSeed(1303),
    nodes: 50,
    services: 0,
    churnMs: 45_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 10_000,
    leaderKills: 3,
    budget: { qps: VSPHERE_API_BUDGET_DEFAULTS.qps, burst: VSPHERE_API_BUDGET_DEFAULTS.burst },
    convergenceTimeoutMs: 180_000,
  },
  420_000,
);
