import { describe, expect, it } from 'vitest';
import { analyseRbacUsage, CCM_USER, rulesBoundToServiceAccount, type AuditEvent, type BoundRule } from './rbac-usage.js';

const event = (verb: string, objectRef: AuditEvent['objectRef'], code = 200, username = CCM_USER): AuditEvent => ({
  verb,
  requestURI: `/x/${verb}`,
  user: { username },
  objectRef,
  responseStatus: { code },
});

const clusterRule = (resources: string[], verbs: string[], apiGroups = ['']): BoundRule => ({ role: 'ClusterRole/ccm', apiGroups, resources, verbs });

describe('analyseRbacUsage', () => {
  it.each([
    { name: 'a verb used on the resource', rule: clusterRule(['nodes'], ['get']), events: [event('get', { resource: 'nodes', name: 'a' })], unused: [] },
    { name: 'a verb nobody used', rule: clusterRule(['nodes'], ['delete']), events: [event('get', { resource: 'nodes' })], unused: ['ClusterRole/ccm: delete core/nodes'] },
    { name: 'a subresource is not the resource', rule: clusterRule(['nodes'], ['patch']), events: [event('patch', { resource: 'nodes', subresource: 'status' })], unused: ['ClusterRole/ccm: patch core/nodes'] },
    { name: 'the subresource rule', rule: clusterRule(['nodes/status'], ['patch']), events: [event('patch', { resource: 'nodes', subresource: 'status' })], unused: [] },
    { name: 'another API group', rule: clusterRule(['leases'], ['get'], ['coordination.k8s.io']), events: [event('get', { resource: 'leases' })], unused: ['ClusterRole/ccm: get coordination.k8s.io/leases'] },
    { name: 'a forbidden request does not count as use', rule: clusterRule(['nodes'], ['get']), events: [event('get', { resource: 'nodes' }, 403)], unused: ['ClusterRole/ccm: get core/nodes'] },
    { name: 'another user does not count', rule: clusterRule(['nodes'], ['get']), events: [event('get', { resource: 'nodes' }, 200, 'admin')], unused: ['ClusterRole/ccm: get core/nodes'] },
    {
      name: 'resourceNames must match the object name',
      rule: { role: 'Role/kube-system/le', apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'], resourceNames: ['ccm'] },
      events: [event('get', { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'kube-system', name: 'other' })],
      unused: ['Role/kube-system/le: get coordination.k8s.io/leases[ccm]'],
    },
    {
      name: 'a Role applies in its own namespace only',
      rule: { role: 'Role/kube-system/le', apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      events: [event('create', { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'default' })],
      unused: ['Role/kube-system/le: create coordination.k8s.io/leases'],
    },
  ])('$name', ({ rule, events, unused }) => {
    expect(analyseRbacUsage([rule], events).unused).toEqual(unused);
  });

  it('lists every 403 of the CCM and counts its requests', () => {
    const usage = analyseRbacUsage([], [event('get', { resource: 'secrets' }, 403), event('list', { resource: 'nodes' }), event('get', { resource: 'x' }, 403, 'someone')]);
    expect(usage.forbidden.map((forbidden) => forbidden.verb)).toEqual(['get']);
    expect(usage.requests).toBe(2);
  });
});

describe('rulesBoundToServiceAccount', () => {
  it('keeps the rules of roles bound to the CCM ServiceAccount only', () => {
    const objects = [
      { kind: 'ClusterRole', metadata: { name: 'ccm' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
      { kind: 'ClusterRole', metadata: { name: 'unbound' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
      { kind: 'Role', metadata: { name: 'le', namespace: 'kube-system' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] }] },
      { kind: 'ClusterRoleBinding', metadata: { name: 'b1' }, roleRef: { kind: 'ClusterRole', name: 'ccm' }, subjects: [{ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' }] },
      { kind: 'ClusterRoleBinding', metadata: { name: 'b2' }, roleRef: { kind: 'ClusterRole', name: 'unbound' }, subjects: [{ kind: 'ServiceAccount', name: 'other', namespace: 'kube-system' }] },
      { kind: 'RoleBinding', metadata: { name: 'b3', namespace: 'kube-system' }, roleRef: { kind: 'Role', name: 'le' }, subjects: [{ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' }] },
      { kind: 'RoleBinding', metadata: { name: 'b4', namespace: 'kube-system' }, roleRef: { kind: 'Role', name: 'built-in' }, subjects: [{ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' }] },
    ];
    expect(rulesBoundToServiceAccount(objects).map((rule) => rule.role)).toEqual(['ClusterRole/ccm', 'Role/kube-system/le']);
  });
});
