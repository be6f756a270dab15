import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { readServiceLoadBalancerOptions } from '../../annotations.js';
import type { AzureBackendAddressPool, AzureLoadBalancer, AzureSecurityRule } from '../../ports/network-port.js';
import type { AzureVirtualMachine } from '../../ports/compute-port.js';
import { allowRuleNameOf, backendPoolNameOf, denyAllRuleNameOf, frontendNameOf, nameForFamily, ownedBy, publicIpNameOf, ruleNameOf } from './load-balancer-names.js';
import { planLoadBalancer, RuleCountExceededError } from './plan-load-balancer.js';
import { nodePrivateAddress, planNodeIpPool } from './plan-node-ip-pool.js';
import { planPoolMembership, withPool } from './plan-pool-membership.js';
import { planPublicIp, planPublicIpRelease, publicIpRefusal } from './plan-public-ip.js';
import { planSecurityRules } from './plan-security-rules.js';
import { buildServiceLoadBalancerSpec } from './service-load-balancer-spec.js';

const BASE = 'a0123456789abcdef0123456789abcd';
const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
/** What is left of the 75 characters of a frontend name for the subnet after `<base>-`. */
const SUBNET_ROOM = 75 - BASE.length - 1;
const SHELL = { name: 'kubernetes', location: 'eastus', tags: {}, poolNames: ['kubernetes'] };
const rule = (base: string, port: number) => ({
  name: `${base}-TCP-${port}`,
  frontendIpConfigurationName: base,
  backendAddressPoolName: 'kubernetes',
  protocol: 'Tcp' as const,
  frontendPort: port,
  backendPort: port,
  enableFloatingIp: true,
  idleTimeoutInMinutes: 4,
  enableTcpReset: true,
  loadDistribution: 'Default' as const,
  disableOutboundSnat: false,
});
const balancer = (frontends: string[], rules = frontends.map((name) => rule(name, 80))): AzureLoadBalancer => ({
  name: 'kubernetes',
  location: 'eastus',
  etag: 'W/"1"',
  sku: 'Standard',
  tags: {},
  frontendIpConfigurations: frontends.map((name) => ({ name, publicIpAddressId: `/pip/${name}` })),
  backendAddressPools: [{ name: 'kubernetes', id: '/lb/pool' }],
  probes: [],
  loadBalancingRules: rules,
});

describe('names', () => {
  it.each([
    [frontendNameOf(BASE, undefined), BASE],
    [frontendNameOf(BASE, 'ilb'), `${BASE}-ilb`],
    [frontendNameOf(BASE, 'x'.repeat(60)), `${BASE}-${'x'.repeat(75 - BASE.length - 1)}`],
    [ruleNameOf(BASE, undefined, 'TCP', 80), `${BASE}-TCP-80`],
    [ruleNameOf(BASE, 'ilb', 'UDP', 53), `${BASE}-ilb-UDP-53`],
    [ruleNameOf(BASE, 'y'.repeat(60), 'TCP', 8080), `${BASE}-${'y'.repeat(75 - `${BASE}-TCP-8080`.length - 1)}-TCP-8080`],
    [ruleNameOf(BASE, 'y'.repeat(60), 'TCP', 8080).length, 75],
    [publicIpNameOf('kubernetes', BASE), `kubernetes-${BASE}`],
    // Upstream's cuts (consts.*MaxLength 80 minus IPFamilySuffixLength 5): a 42-character cluster
    // name makes a 75-character public IP name, one more is cut; no end-character fix.
    [publicIpNameOf('c'.repeat(42), BASE), `${'c'.repeat(42)}-${BASE}`],
    [publicIpNameOf(`${'c'.repeat(42)}-x`, BASE), `${'c'.repeat(42)}-x-${BASE}`.slice(0, 75)],
    [publicIpNameOf('c'.repeat(60), BASE), `${'c'.repeat(60)}-${BASE.slice(0, 14)}`],
    // The frontend name's last character after a cut must be a letter or '_' (upstream replaces it).
    [frontendNameOf(BASE, `${'s'.repeat(SUBNET_ROOM - 1)}-tail`), `${BASE}-${'s'.repeat(SUBNET_ROOM - 1)}_`],
    [frontendNameOf(BASE, `${'s'.repeat(SUBNET_ROOM - 1)}9tail`), `${BASE}-${'s'.repeat(SUBNET_ROOM - 1)}_`],
    [frontendNameOf(BASE, `${'s'.repeat(SUBNET_ROOM)}tail`), `${BASE}-${'s'.repeat(SUBNET_ROOM)}`],
    [ownedBy(BASE, `${BASE}-TCP-80`), true],
    [ownedBy(BASE, `${BASE}x-TCP-80`), false],
    [allowRuleNameOf('Tcp', 'IPv4', ['b', 'a'], ['80']) === allowRuleNameOf('Tcp', 'IPv4', ['a', 'b'], ['80']), true],
    [allowRuleNameOf('Tcp', 'IPv4', ['a'], ['80']) === allowRuleNameOf('Udp', 'IPv4', ['a'], ['80']), false],
    // upstream GenerateAllowSecurityRuleName: md5 of "Tcp_Internet_80"; the family is in the name, not the hash.
    [allowRuleNameOf('Tcp', 'IPv4', ['Internet'], ['80']), `k8s-azure-lb_allow_IPv4_${md5('Tcp_Internet_80')}`],
    [allowRuleNameOf('Tcp', 'IPv6', ['Internet'], ['80']), `k8s-azure-lb_allow_IPv6_${md5('Tcp_Internet_80')}`],
    [denyAllRuleNameOf('IPv6'), 'k8s-azure-lb_deny-all_IPv6'],
    // upstream getResourceByIPFamily: only the IPv6 half of a dual-stack Service is suffixed.
    [nameForFamily(BASE, true, 'IPv6'), `${BASE}-IPv6`],
    [nameForFamily(BASE, true, 'IPv4'), BASE],
    [nameForFamily(BASE, false, 'IPv6'), BASE],
    // upstream getBackendPoolName: the IPv6 pool is suffixed whether the Service is dual-stack or not.
    [backendPoolNameOf('kubernetes', 'IPv4'), 'kubernetes'],
    [backendPoolNameOf('kubernetes', 'IPv6'), 'kubernetes-IPv6'],
    [ownedBy(BASE, `${BASE}-IPv6`), true],
  ])('%s', (actual, expected) => {
    expect(actual).toEqual(expected);
  });
});

describe('planLoadBalancer', () => {
  const spec = { base: BASE, rules: [rule(BASE, 80)], probes: [] };
  const frontend = { name: BASE, publicIpAddressId: `/pip/${BASE}` };
  it.each([
    ['nothing there, nothing wanted', undefined, [], 'none', []],
    ['creates the load balancer with the pool', undefined, [frontend], 'put', [BASE]],
    ['adds beside another Service', balancer(['other']), [frontend], 'put', ['other', BASE]],
    ['unchanged: no write', balancer([BASE]), [frontend], 'none', [BASE]],
    ['removes its parts, keeps the others', balancer(['other', BASE]), [], 'put', ['other']],
    ['the last frontend goes: delete', balancer([BASE]), [], 'delete', [BASE]],
    ['not there to remove: no write', balancer(['other']), [], 'none', ['other']],
  ] as const)('%s', (_name, existing, wanted, action, frontends) => {
    const plan = planLoadBalancer(existing, SHELL, spec, wanted, 250);
    expect(plan.action).toBe(action);
    expect(plan.loadBalancer?.frontendIpConfigurations.map((item) => item.name) ?? []).toEqual(frontends);
    if (plan.action === 'put') expect(plan.loadBalancer.backendAddressPools.map((pool) => pool.name)).toEqual(['kubernetes']);
  });

  it('a changed rule or a frontend on another public IP is a write', () => {
    expect(planLoadBalancer(balancer([BASE]), SHELL, { ...spec, rules: [{ ...rule(BASE, 80), idleTimeoutInMinutes: 10 }] }, [frontend], 250).action).toBe('put');
    expect(planLoadBalancer(balancer([BASE]), SHELL, spec, [{ name: BASE, publicIpAddressId: '/pip/other' }], 250).action).toBe('put');
  });

  it('a dual-stack Service: one frontend per family, both pools, the IPv6 half dropped when the Service goes single-stack', () => {
    const v6 = `${BASE}-IPv6`;
    const dual = { base: BASE, rules: [rule(BASE, 80), { ...rule(v6, 80), name: `${v6}-TCP-80`, frontendIpConfigurationName: v6, backendAddressPoolName: 'kubernetes-IPv6' }], probes: [] };
    const frontends = [frontend, { name: v6, publicIpAddressId: `/pip/${v6}` }];
    const created = planLoadBalancer(undefined, { ...SHELL, poolNames: ['kubernetes', 'kubernetes-IPv6'] }, dual, frontends, 250);
    expect(created.action).toBe('put');
    expect(created.loadBalancer?.frontendIpConfigurations.map((item) => item.name)).toEqual([BASE, v6]);
    expect(created.loadBalancer?.backendAddressPools.map((pool) => pool.name)).toEqual(['kubernetes', 'kubernetes-IPv6']);
    expect(created.loadBalancer?.loadBalancingRules.map((item) => [item.name, item.backendAddressPoolName])).toEqual([
      [`${BASE}-TCP-80`, 'kubernetes'],
      [`${v6}-TCP-80`, 'kubernetes-IPv6'],
    ]);
    const single = planLoadBalancer(created.loadBalancer, SHELL, spec, [frontend], 250);
    expect(single.loadBalancer?.frontendIpConfigurations.map((item) => item.name)).toEqual([BASE]);
    expect(single.loadBalancer?.loadBalancingRules.map((item) => item.name)).toEqual([`${BASE}-TCP-80`]);
  });

  it('an internal frontend of the other family is a different frontend', () => {
    const internal: AzureLoadBalancer = { ...balancer([]), frontendIpConfigurations: [{ name: BASE, subnetId: '/subnet', privateIpAllocationMethod: 'Dynamic', privateIpAddress: '10.0.0.9', privateIpAddressVersion: 'IPv4' }], loadBalancingRules: [rule(BASE, 80)] };
    expect(planLoadBalancer(internal, SHELL, spec, [{ name: BASE, subnetId: '/subnet', privateIpAllocationMethod: 'Dynamic', privateIpAddressVersion: 'IPv6' }], 250).action).toBe('put');
  });

  it('keeps a dynamic private address ARM allocated', () => {
    const internal: AzureLoadBalancer = { ...balancer([]), frontendIpConfigurations: [{ name: BASE, subnetId: '/subnet', privateIpAllocationMethod: 'Dynamic', privateIpAddress: '10.0.0.9' }], loadBalancingRules: [rule(BASE, 80)] };
    expect(planLoadBalancer(internal, SHELL, spec, [{ name: BASE, subnetId: '/subnet', privateIpAllocationMethod: 'Dynamic' }], 250).action).toBe('none');
    expect(planLoadBalancer(internal, SHELL, spec, [{ name: BASE, subnetId: '/subnet', privateIpAllocationMethod: 'Static', privateIpAddress: '10.0.0.7' }], 250).action).toBe('put');
  });

  it('refuses to grow past maximumLoadBalancerRuleCount', () => {
    expect(() => planLoadBalancer(balancer(['other']), SHELL, spec, [frontend], 1)).toThrow(RuleCountExceededError);
  });
});

describe('planSecurityRules', () => {
  const user: AzureSecurityRule = { name: 'user', priority: 500, direction: 'Inbound', access: 'Allow', protocol: '*', sourcePortRange: '*', sourceAddressPrefixes: ['*'], destinationAddressPrefixes: ['*'], destinationPortRanges: ['22'] };
  const spec = { protocol: 'Tcp' as const, sources: ['Internet'], ports: ['80'] };
  const name = allowRuleNameOf('Tcp', 'IPv4', ['Internet'], ['80']);
  const managed = (destinations: string[], priority = 501): AzureSecurityRule => ({ ...user, name, priority, protocol: 'Tcp', sourceAddressPrefixes: ['Internet'], destinationAddressPrefixes: destinations, destinationPortRanges: ['80'] });

  it.each([
    ['creates at the first free priority, user rules untouched', [user], [], '1.1.1.1', [user, managed(['1.1.1.1'])], true],
    ['shares an identical rule', [user, managed(['2.2.2.2'])], [], '1.1.1.1', [user, managed(['1.1.1.1', '2.2.2.2'])], true],
    ['unchanged: no write', [user, managed(['1.1.1.1'])], [], '1.1.1.1', [user, managed(['1.1.1.1'])], false],
    ['removal keeps the rule for others', [user, managed(['1.1.1.1', '2.2.2.2'])], ['1.1.1.1'], undefined, [user, managed(['2.2.2.2'])], true],
    ['removal of the last address drops the rule', [user, managed(['1.1.1.1'])], ['1.1.1.1'], undefined, [user], true],
    ['an address that moved is taken out of its old rule', [user, managed(['9.9.9.9'])], ['9.9.9.9'], '1.1.1.1', [user, managed(['1.1.1.1'])], true],
  ] as const)('%s', (_name, rules, remove, address, expected, changed) => {
    const plan = planSecurityRules(rules, remove, address === undefined ? [] : [{ address, family: 'IPv4', specs: [spec], denyAll: false }]);
    expect(plan.rules).toEqual(expected);
    expect(plan.changed).toBe(changed);
  });

  it('a deny-all rule goes at the highest free priority', () => {
    const plan = planSecurityRules([], [], [{ address: '1.1.1.1', family: 'IPv4', specs: [spec], denyAll: true }]);
    expect(plan.rules.map((item) => [item.name.replace(/_[0-9a-f]{32}$/, ''), item.priority, item.access])).toEqual([
      ['k8s-azure-lb_allow_IPv4', 500, 'Allow'],
      ['k8s-azure-lb_deny-all_IPv4', 4096, 'Deny'],
    ]);
  });

  it('a dual-stack Service: each address in its own family\'s rules; removing both addresses drops both', () => {
    const plan = planSecurityRules(
      [user],
      [],
      [
        { address: '1.1.1.1', family: 'IPv4', specs: [spec], denyAll: true },
        { address: '2603:1030::1', family: 'IPv6', specs: [spec], denyAll: true },
      ],
    );
    expect(plan.rules.map((item) => [item.name, item.destinationAddressPrefixes])).toEqual([
      ['user', ['*']],
      [name, ['1.1.1.1']],
      ['k8s-azure-lb_deny-all_IPv4', ['1.1.1.1']],
      [allowRuleNameOf('Tcp', 'IPv6', ['Internet'], ['80']), ['2603:1030::1']],
      ['k8s-azure-lb_deny-all_IPv6', ['2603:1030::1']],
    ]);
    expect(new Set(plan.rules.map((item) => item.priority)).size).toBe(plan.rules.length);
    expect(planSecurityRules(plan.rules, ['1.1.1.1', '2603:1030::1'], []).rules).toEqual([user]);
  });
});

describe('publicIpRefusal (upstream serviceOwnsPublicIP, reconcileDNSSettings)', () => {
  const wish = { serviceKey: 'ns/web', clusterName: 'kubernetes' };
  const ip = (tags: Record<string, string>) => ({ name: 'shared-ip', location: 'eastus', tags, version: 'IPv4' as const, ipAddress: '20.0.0.1', ipTags: [] });
  it.each([
    ['no public IP yet', undefined, wish, undefined],
    ['tagged for this Service', ip({ 'k8s-azure-service': 'ns/web', 'k8s-azure-cluster-name': 'kubernetes' }), wish, undefined],
    ['tagged for this Service, other letter case', ip({ 'k8s-azure-service': 'NS/Web', 'k8s-azure-cluster-name': 'Kubernetes' }), wish, undefined],
    ['tagged for this Service among others (shared by upstream)', ip({ 'k8s-azure-service': 'ns/api,ns/web', 'k8s-azure-cluster-name': 'kubernetes' }), wish, undefined],
    ['legacy tags only (old releases)', ip({ service: 'ns/web' }), wish, undefined],
    ['tagged for another Service only', ip({ 'k8s-azure-service': 'ns/api', 'k8s-azure-cluster-name': 'kubernetes' }), wish, 'other-services'],
    ['tagged for this Service of another cluster', ip({ 'k8s-azure-service': 'ns/web', 'k8s-azure-cluster-name': 'prod' }), wish, 'other-cluster'],
    ['legacy cluster tag of another cluster', ip({ service: 'ns/web', 'kubernetes-cluster-name': 'prod' }), wish, 'other-cluster'],
    ['DNS label set by another Service', ip({ 'k8s-azure-service': 'ns/api,ns/web', 'k8s-azure-dns-label-service': 'ns/api' }), { ...wish, dnsLabelName: 'web' }, 'dns-label-in-use'],
    ['DNS label removal asked while another Service set it', ip({ 'k8s-azure-service': 'ns/api,ns/web', 'k8s-azure-dns-label-service': 'ns/api' }), { ...wish, dnsLabelName: '' }, 'dns-label-in-use'],
    ['DNS label of another Service, annotation absent', ip({ 'k8s-azure-service': 'ns/api,ns/web', 'k8s-azure-dns-label-service': 'ns/api' }), wish, undefined],
    ['DNS label set by this Service', ip({ 'k8s-azure-service': 'ns/web', 'k8s-azure-dns-label-service': 'ns/web' }), { ...wish, dnsLabelName: 'web2' }, undefined],
  ])('%s', (_name, existing, candidate, reason) => {
    expect(publicIpRefusal(existing, candidate)?.reason).toBe(reason);
  });
});

describe('planPublicIp', () => {
  const wish = { name: 'kubernetes-a1', location: 'eastus', serviceKey: 'ns/web', clusterName: 'kubernetes', configTags: { team: 'x' }, extraTags: {}, ipTags: [] };
  it('creates with the ownership tags; a second Service joins the tag list; unchanged is no write', () => {
    const created = planPublicIp(undefined, wish);
    expect(created.changed).toBe(true);
    expect(created.publicIp.tags).toEqual({ team: 'x', 'k8s-azure-service': 'ns/web', 'k8s-azure-cluster-name': 'kubernetes' });
    const stored = { ...created.publicIp, ipAddress: '20.0.0.1', etag: '"1"' };
    expect(planPublicIp(stored, wish).changed).toBe(false);
    expect(planPublicIp(stored, { ...wish, serviceKey: 'ns/api' }).publicIp.tags['k8s-azure-service']).toBe('ns/api,ns/web');
    expect(planPublicIp({ ...stored, tags: { service: 'ns/old' } }, wish).publicIp.tags).toMatchObject({ 'k8s-azure-service': 'ns/old,ns/web' });
  });
  it('DNS label: set records the Service, empty removes, absent leaves it', () => {
    const labelled = planPublicIp(undefined, { ...wish, dnsLabelName: 'web' }).publicIp;
    expect([labelled.domainNameLabel, labelled.tags['k8s-azure-dns-label-service']]).toEqual(['web', 'ns/web']);
    expect(planPublicIp(labelled, wish).publicIp.domainNameLabel).toBe('web');
    const removed = planPublicIp(labelled, { ...wish, dnsLabelName: '' });
    expect([removed.changed, removed.publicIp.domainNameLabel, removed.publicIp.tags['k8s-azure-dns-label-service']]).toEqual([true, undefined, undefined]);
  });
  it.each([
    ['ns/web', 'delete'],
    ['ns/web,ns/api', 'untag'],
    ['ns/api', 'none'],
  ])('release with tag %s: %s', (tag, action) => {
    expect(planPublicIpRelease({ name: 'p', location: 'eastus', tags: { 'k8s-azure-service': tag }, version: 'IPv4', ipAddress: '1.1.1.1', ipTags: [] }, 'ns/web', 'kubernetes').action).toBe(action);
  });
  it.each([
    [{ 'k8s-azure-cluster-name': 'kubernetes' }, 'delete'],
    [{ 'k8s-azure-cluster-name': 'KUBERNETES' }, 'delete'],
    [{}, 'delete'],
    [{ 'k8s-azure-cluster-name': 'other-cluster' }, 'none'],
    [{ 'kubernetes-cluster-name': 'other-cluster' }, 'none'],
  ])('release of a public IP tagged with the same Service key and cluster tags %j: %s (upstream serviceOwnsPublicIP; issue 23 swap)', (clusterTags, action) => {
    const publicIp = { name: 'p', location: 'eastus', tags: { 'k8s-azure-service': 'ns/web', ...clusterTags }, version: 'IPv4' as const, ipAddress: '1.1.1.1', ipTags: [] };
    expect(planPublicIpRelease(publicIp, 'ns/web', 'kubernetes').action).toBe(action);
  });
});

describe('planPoolMembership', () => {
  const sub = '/subscriptions/s/resourceGroups/rg/providers';
  const vm = (name: string): AzureVirtualMachine => ({ id: `${sub}/Microsoft.Compute/virtualMachines/${name}`, name, resourceGroup: 'rg', location: 'eastus', zones: [], vmSize: 'x', powerState: 'running', provisioningState: 'Succeeded', networkInterfaceIds: [`${sub}/Microsoft.Network/networkInterfaces/${name}-nic`] });
  const instance = (set: string, id: string): AzureVirtualMachine => ({ ...vm(`${set}_${id}`), id: `${sub}/Microsoft.Compute/virtualMachineScaleSets/${set}/virtualMachines/${id}`, scaleSet: { name: set, instanceId: id } });
  const nicMember = (name: string) => `${sub}/Microsoft.Network/networkInterfaces/${name}-nic/ipConfigurations/ipconfig1`;
  const instanceMember = (set: string, id: string) => `${sub}/Microsoft.Compute/virtualMachineScaleSets/${set}/virtualMachines/${id}/networkInterfaces/nic/ipConfigurations/ipconfig1`;

  it.each([
    ['all new', [vm('a'), instance('ss', '0')], [], { nics: ['a'], instances: ['ss/0'], removeNics: [], removeInstances: [] }],
    ['already members', [vm('a'), instance('ss', '0')], [nicMember('a'), instanceMember('ss', '0')], { nics: [], instances: [], removeNics: [], removeInstances: [] }],
    ['gone nodes leave', [vm('a')], [nicMember('a'), nicMember('b'), instanceMember('ss', '1')], { nics: [], instances: [], removeNics: ['b'], removeInstances: ['ss/1'] }],
  ] as const)('%s', (_name, wanted, members, expected) => {
    const plan = planPoolMembership(wanted, members);
    expect({
      nics: plan.addNetworkInterfaces.map((id) => id.split('/').pop()?.replace(/-nic$/, '')),
      instances: plan.addInstances.map((ref) => `${ref.scaleSet}/${ref.instanceId}`),
      removeNics: plan.removeNetworkInterfaces.map((id) => id.split('/').pop()?.replace(/-nic$/, '')),
      removeInstances: plan.removeInstances.map((ref) => `${ref.scaleSet}/${ref.instanceId}`),
    }).toEqual(expected);
  });

  it('withPool adds and removes case-insensitively, reporting no change when there is none', () => {
    expect(withPool(['/A'], '/a', true)).toEqual({ pools: ['/A'], changed: false });
    expect(withPool(['/A'], '/b', true)).toEqual({ pools: ['/A', '/b'], changed: true });
    expect(withPool(['/A', '/b'], '/a', false)).toEqual({ pools: ['/b'], changed: true });
  });
});

describe('planNodeIpPool (upstream backendPoolTypeNodeIP.EnsureHostsInPool)', () => {
  const VNET = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet';
  const node = (name: string, ...addresses: string[]): V1Node => ({
    metadata: { name },
    status: { addresses: [{ type: 'Hostname', address: name }, ...addresses.map((address) => ({ type: address.startsWith('20.') ? 'ExternalIP' : 'InternalIP', address }))] },
  });
  const pool = (...entries: Array<[string, string]>): AzureBackendAddressPool => ({ name: 'kubernetes', id: '/lb/pool', virtualNetworkId: VNET, backendAddresses: entries.map(([name, ipAddress]) => ({ name, ipAddress })) });
  const a = node('node-a', '10.0.0.4', '20.0.0.4', 'fd00::4');
  const b = node('node-b', '10.0.0.5', 'fd00::5');
  const noAddress = node('node-c');

  it.each([
    ['a new pool takes every node by InternalIP, named after the node, and the virtual network', { name: 'kubernetes', id: '/lb/pool' }, [a, b, noAddress], 'IPv4', [['node-a', '10.0.0.4'], ['node-b', '10.0.0.5']], true, ['10.0.0.4', '10.0.0.5'], []],
    ['the IPv6 pool takes the IPv6 InternalIPs', { name: 'kubernetes-IPv6' }, [a, b], 'IPv6', [['node-a', 'fd00::4'], ['node-b', 'fd00::5']], true, ['fd00::4', 'fd00::5'], []],
    ['an upstream-made pool with the same members: no write', pool(['node-a', '10.0.0.4'], ['node-b', '10.0.0.5']), [b, a], 'IPv4', [['node-a', '10.0.0.4'], ['node-b', '10.0.0.5']], false, [], []],
    ['a node gone (or excluded) leaves', pool(['node-a', '10.0.0.4'], ['node-b', '10.0.0.5']), [a], 'IPv4', [['node-a', '10.0.0.4']], true, [], ['10.0.0.5']],
    ['a node that changed address is swapped', pool(['node-a', '10.0.0.9']), [a], 'IPv4', [['node-a', '10.0.0.4']], true, ['10.0.0.4'], ['10.0.0.9']],
    ['never emptied: no node left keeps the pool as it is', pool(['node-a', '10.0.0.4']), [], 'IPv4', [['node-a', '10.0.0.4']], false, [], []],
  ] as const)('%s', (_name, current, nodes, family, members, changed, added, removed) => {
    const plan = planNodeIpPool(current, nodes, family, VNET);
    expect(plan.pool.backendAddresses?.map((entry) => [entry.name, entry.ipAddress])).toEqual(members);
    expect(plan.pool.virtualNetworkId).toBe(VNET);
    expect(plan.changed).toBe(changed);
    expect(plan.added).toEqual(added);
    expect(plan.removed).toEqual(removed);
  });

  it('keeps the virtual network an existing pool names', () => {
    expect(planNodeIpPool({ ...pool(), virtualNetworkId: '/other/vnet' }, [a], 'IPv4', VNET).pool.virtualNetworkId).toBe('/other/vnet');
  });

  it('nodePrivateAddress: the first InternalIP of the family', () => {
    expect([nodePrivateAddress(a, 'IPv4'), nodePrivateAddress(a, 'IPv6'), nodePrivateAddress(noAddress, 'IPv4')]).toEqual(['10.0.0.4', 'fd00::4', undefined]);
  });
});

describe('buildServiceLoadBalancerSpec per family (upstream getResourceByIPFamily, AccessControl IPV4Sources / IPV6Sources)', () => {
  const dualStack = (ranges: string[], annotations: Record<string, string> = {}): V1Service => ({
    metadata: { name: 'web', namespace: 'default', uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', annotations },
    spec: { type: 'LoadBalancer', ipFamilies: ['IPv4', 'IPv6'], loadBalancerSourceRanges: ranges, ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] },
  });
  const specOf = (service: V1Service, family: 'IPv4' | 'IPv6') =>
    buildServiceLoadBalancerSpec(service, readServiceLoadBalancerOptions(service), { poolName: backendPoolNameOf('kubernetes', family), disableOutboundSnat: false, family, dualStack: true });

  it.each([
    ['no ranges: Internet for both', [], {}, [['Internet']], [['Internet']]],
    ['ranges of both families: each family its own', ['10.0.0.0/8', 'fd00::/8'], {}, [['10.0.0.0/8']], [['fd00::/8']]],
    ['IPv4 ranges only: no allow rule for the IPv6 address', ['10.0.0.0/8'], {}, [['10.0.0.0/8']], []],
    ['IPv4 ranges and a service tag: the tag for both', ['10.0.0.0/8'], { 'service.beta.kubernetes.io/azure-allowed-service-tags': 'AzureFrontDoor.Backend' }, [['10.0.0.0/8'], ['AzureFrontDoor.Backend']], [['AzureFrontDoor.Backend']]],
  ] as const)('%s', (_name, ranges, annotations, v4Sources, v6Sources) => {
    const service = dualStack([...ranges], annotations);
    expect(specOf(service, 'IPv4').security.map((spec) => spec.sources)).toEqual(v4Sources);
    expect(specOf(service, 'IPv6').security.map((spec) => spec.sources)).toEqual(v6Sources);
  });

  it('names the IPv6 half -IPv6 and points its rules at the IPv6 pool', () => {
    const v6 = specOf(dualStack([]), 'IPv6');
    expect([v6.family, v6.frontendName, v6.rules.map((rule) => [rule.name, rule.frontendIpConfigurationName, rule.backendAddressPoolName, rule.probeName])]).toEqual([
      'IPv6',
      'a1b4e28ba2fa111d2883f0016d3cca42-IPv6',
      [['a1b4e28ba2fa111d2883f0016d3cca42-TCP-80-IPv6', 'a1b4e28ba2fa111d2883f0016d3cca42-IPv6', 'kubernetes-IPv6', 'a1b4e28ba2fa111d2883f0016d3cca42-TCP-80-IPv6']],
    ]);
  });
});
