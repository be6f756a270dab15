/**
 * The load balancer part of docs/cloud-controller-manager.md, from the annotation registry and the
 * load balancer's constants: annotations with status, the names and descriptions it writes, the
 * environment variables and the provisioning wait.
 */
import { renderAnnotationTable } from '@ccm/core/service-input';
import { ALL_ANNOTATIONS } from '../annotations.js';
import { IMMUTABLE_RETRIES } from '../operations/load-balancer/load-balancer-context.js';
import { floatingIpDescription, listenerName, loadBalancerDescription, loadBalancerName, MAX_NAME_LENGTH, monitorName, poolName, vipPortDescription, vipPortName } from '../operations/load-balancer/load-balancer-names.js';
import { RESERVE_VIP_PORT_ENVIRONMENT_VARIABLE } from '../operations/load-balancer/load-balancer-settings-from-config.js';
import { DEFAULT_PROVISIONING_WAIT } from '../operations/load-balancer/provisioning-wait.js';

export function renderLoadBalancerReference(): string[] {
  const service = { namespace: '<namespace>', name: '<name>' };
  const lb = loadBalancerName('<cluster>', service);
  return [
    '## Load balancers (Octavia)',
    '',
    'One Octavia load balancer per Service, created in one fully populated call (listeners, default pools, members, health monitors; with `provider-requires-serial-api-calls`: created empty, then one call per child), then kept equal to the Service by diffs; members change in one batch update per pool (one by one in serial mode). A floating IP from the floating network goes on the VIP port unless the load balancer is internal.',
    '',
    '### Names and ownership',
    '',
    `Names longer than ${MAX_NAME_LENGTH} characters are cut, as upstream.`,
    '',
    '| What | Name | Description |',
    '| --- | --- | --- |',
    `| Load balancer | \`${lb}\` (tag: the same) | ${loadBalancerDescription('<cluster>', service)} |`,
    `| Listener of port *i* | \`${listenerName(0, lb).replace('_0_', '_<i>_')}\` (tag: the load balancer's name) | |`,
    `| Pool of port *i* | \`${poolName(0, lb).replace('_0_', '_<i>_')}\` | |`,
    `| Health monitor of port *i* | \`${monitorName(0, lb).replace('_0_', '_<i>_')}\` | |`,
    `| Floating IP | | ${floatingIpDescription('<cluster>', service)} |`,
    `| Reserved VIP port (\`${RESERVE_VIP_PORT_ENVIRONMENT_VARIABLE}=true\` only) | \`${vipPortName(lb)}\` | ${vipPortDescription('<cluster>', service)} |`,
    '',
    'A floating IP is deleted only when its description names the Service (else it is detached); a load balancer is deleted (cascade) only when its name starts with `kube_service_` and no other Service\'s tag is on it (else only the Service\'s listeners and tag are removed).',
    '',
    '### Service annotations',
    '',
    'A malformed value is one Warning event naming the annotation and the value, and no cloud change (upstream falls back to the default).',
    '',
    ...renderAnnotationTable(ALL_ANNOTATIONS),
    '',
    '### Environment',
    '',
    '| Variable | Meaning |',
    '| --- | --- |',
    `| \`OCCM_WAIT_LB_ACTIVE_STEPS\` | Checks of the provisioning status while waiting for ACTIVE (upstream; default ${DEFAULT_PROVISIONING_WAIT.steps}: the first at once, then ${DEFAULT_PROVISIONING_WAIT.initialDelayMs} ms growing by ${DEFAULT_PROVISIONING_WAIT.factor} per step), after ${DEFAULT_PROVISIONING_WAIT.quickChecks} quick checks ${DEFAULT_PROVISIONING_WAIT.quickDelayMs} ms apart (not upstream: most changes finish in under a second). |`,
    `| \`${RESERVE_VIP_PORT_ENVIRONMENT_VARIABLE}\` | \`true\` (not upstream): for Octavia deployments whose network driver creates no Neutron ports (the noop driver of test clouds): the CCM reserves the VIP address with a Neutron port of its own, passes \`vip_subnet_id\` and \`vip_address\`, and puts the floating IP on that port. |`,
    '',
    `Octavia refuses changes while a load balancer is PENDING_*: every change waits for ACTIVE first, and a 409 is retried after waiting again (${IMMUTABLE_RETRIES} attempts). A load balancer in ERROR fails every sync with upstream's error (\`load balancer <id> is not ACTIVE, current provisioning status: ERROR\`, a SyncLoadBalancerFailed Warning) and is left as it is, with its VIP and floating IP, until an operator repairs it (Octavia failover) or deletes the Service; one that goes to ERROR while the CCM creates it is deleted, and the next sync creates it again (as upstream).`,
    '',
  ];
}
