// Chaos against the real Keystone, Neutron and Octavia (with the Nova stand-in) of
// @ccm/openstack-services (Debian's OpenStack packages, MariaDB, RabbitMQ; the OpenStack CCM must
// be built). The proxy sits in front of the driver's catalog router, so every Keystone, Nova,
// Neutron and Octavia call of the CCM goes through it; it answers each service's own fault body
// (Nova `computeFault`/`overLimit`, Neutron `NeutronError`, Octavia's WSME fault, Keystone
// `error`) and 429 with Retry-After. Smaller than the other clouds: the services create servers
// and load balancers slowly on 2 cores (Octavia children are changed one call at a time,
// `provider-requires-serial-api-calls`). The cloud call budget is fixed
// (OPENSTACK_API_BUDGET_DEFAULTS): the call rate is checked against it.
//
// Convergence is paced by Octavia itself: serial mode changes one child at a time and waits for
// ACTIVE after each (about 1.2 s a change on a quiet machine). Measured after the faults stop:
// 66.5 s alone, 63-184 s inside the full suite (4 isolated workers on 2 cores), so the bound is
// 420 s, and the test's own timeout covers churn, that bound and the teardown's equal bound.
import { OPENSTACK_API_BUDGET_DEFAULTS, OpenStackDriver } from '@ccm/cloud-provider-openstack/conformance';
import { chaosSeed, describeChaos } from './chaos-suite.js';

await describeChaos(
  new OpenStackDriver(),
  {
    seed: chaosSeed(1306),
    nodes: 12,
    services: 4,
    churnMs: 40_000,
    cloudFaultRate: 0.2,
    watchCutEveryMs: 4_000,
    goneOnResumeRate: 0.3,
    apiDownMs: 8_000,
    leaderKills: 3,
    budget: { qps: OPENSTACK_API_BUDGET_DEFAULTS.qps, burst: OPENSTACK_API_BUDGET_DEFAULTS.burst },
    convergenceTimeoutMs: 420_000,
  },
  1_000_000,
);
