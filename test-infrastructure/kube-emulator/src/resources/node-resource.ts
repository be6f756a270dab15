/** core/v1 Node: cluster-scoped, with a status subresource. */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { conditionsPatchSchema, objectPatchSchema } from '../patch/patch-schema.js';
import { deepEqual, isPlainObject } from '../util/json.js';
import { allVerbs, ageColumn, column, ensureObject, expectType, metadataFieldSelectors, nameColumn, objectAge, text } from './common.js';
import { labelValueErrors, qualifiedNameErrors, dns1123SubdomainErrors } from './name-validation.js';
import { parseCidr } from '../util/ip.js';
import type { ResourceDefinition, StoredObject } from './resource-definition.js';

const taintEffects = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];
const nodeInfoFields = ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'];

function spec(node: KubeObject): Record<string, unknown> {
  return isPlainObject(node['spec']) ? node['spec'] : {};
}
function status(node: KubeObject): Record<string, unknown> {
  return isPlainObject(node['status']) ? node['status'] : {};
}

function checkTypes(node: KubeObject): void {
  const check = (path: string, value: unknown, expected: Parameters<typeof expectType>[4]): void => expectType('Node', 'v1', path, value, expected);
  check('Node.spec', node['spec'], 'object');
  check('Node.status', node['status'], 'object');
  const nodeSpec = spec(node);
  check('NodeSpec.spec.taints', nodeSpec['taints'], 'array');
  check('NodeSpec.spec.podCIDRs', nodeSpec['podCIDRs'], 'array');
  check('NodeSpec.spec.podCIDR', nodeSpec['podCIDR'], 'string');
  check('NodeSpec.spec.providerID', nodeSpec['providerID'], 'string');
  check('NodeSpec.spec.unschedulable', nodeSpec['unschedulable'], 'boolean');
  for (const taint of (nodeSpec['taints'] as unknown[] | undefined) ?? []) check('NodeSpec.spec.taints', taint, 'object');
  const nodeStatus = status(node);
  check('NodeStatus.status.addresses', nodeStatus['addresses'], 'array');
  check('NodeStatus.status.conditions', nodeStatus['conditions'], 'array');
  for (const address of (nodeStatus['addresses'] as unknown[] | undefined) ?? []) check('NodeStatus.status.addresses', address, 'object');
  for (const condition of (nodeStatus['conditions'] as unknown[] | undefined) ?? []) check('NodeStatus.status.conditions', condition, 'object');
}

/** v1 carries both podCIDR and podCIDRs; the apiserver keeps them in step. */
function syncPodCidrs(node: KubeObject): void {
  const nodeSpec = spec(node);
  const podCidrs = nodeSpec['podCIDRs'];
  if (Array.isArray(podCidrs) && podCidrs.length > 0) nodeSpec['podCIDR'] = podCidrs[0];
  else if (typeof nodeSpec['podCIDR'] === 'string' && nodeSpec['podCIDR'] !== '') nodeSpec['podCIDRs'] = [nodeSpec['podCIDR']];
}

function prepare(node: KubeObject): void {
  checkTypes(node);
  const nodeSpec = spec(node);
  if (nodeSpec['unschedulable'] === false) delete nodeSpec['unschedulable'];
  // Go's omitempty: an empty taint list is not stored (a real API server answers without it).
  if (Array.isArray(nodeSpec['taints']) && nodeSpec['taints'].length === 0) delete nodeSpec['taints'];
  syncPodCidrs(node);
  const nodeStatus = status(node);
  if (isPlainObject(nodeStatus['capacity']) && nodeStatus['allocatable'] === undefined) nodeStatus['allocatable'] = { ...nodeStatus['capacity'] };
}

export const notReadyTaint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' } as const;

/**
 * kube-apiserver's TaintNodesByCondition admission (on by default): a new Node gets the
 * not-ready NoSchedule taint unless it has it; the node lifecycle controller removes it later.
 */
function addNotReadyTaint(node: KubeObject): void {
  const nodeSpec = spec(node);
  node['spec'] = nodeSpec;
  const taints = Array.isArray(nodeSpec['taints']) ? (nodeSpec['taints'] as unknown[]) : [];
  const present = taints.some((taint) => isPlainObject(taint) && taint['key'] === notReadyTaint.key && taint['effect'] === notReadyTaint.effect);
  if (!present) nodeSpec['taints'] = [...taints, { ...notReadyTaint }];
}

function validateTaints(taints: unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((taint, index) => {
    const path = `spec.taints[${index}]`;
    const entry = isPlainObject(taint) ? taint : {};
    const key = text(entry['key']);
    const effect = text(entry['effect']);
    if (key === '') errors.push(fieldErrors.required(`${path}.key`));
    else for (const message of qualifiedNameErrors(key)) errors.push(fieldErrors.invalid(`${path}.key`, key, message));
    for (const message of labelValueErrors(text(entry['value']))) errors.push(fieldErrors.invalid(`${path}.value`, entry['value'], message));
    if (effect === '') errors.push(fieldErrors.required(`${path}.effect`));
    else if (!taintEffects.includes(effect)) errors.push(fieldErrors.notSupported(`${path}.effect`, effect, taintEffects));
    const identity = `${key}\u0000${effect}`;
    if (seen.has(identity)) errors.push(fieldErrors.duplicate(path, taint));
    seen.add(identity);
  });
  if (errors.some((error) => error.type === 'FieldValueDuplicate')) {
    return errors.map((error) => (error.type === 'FieldValueDuplicate' ? { ...error, body: `${error.body}: taints must be unique by key and effect pair` } : error));
  }
  return errors;
}

function validateNode(node: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const nodeSpec = spec(node);
  errors.push(...validateTaints((nodeSpec['taints'] as unknown[] | undefined) ?? []));
  const podCidrs = (nodeSpec['podCIDRs'] as unknown[] | undefined) ?? [];
  if (podCidrs.length > 2) errors.push(fieldErrors.tooMany('spec.podCIDRs', podCidrs.length, 2));
  const families = new Set<string>();
  podCidrs.forEach((cidr, index) => {
    const parsed = typeof cidr === 'string' ? parseCidr(cidr) : undefined;
    if (!parsed) errors.push(fieldErrors.invalid(`spec.podCIDRs[${index}]`, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    else if (families.has(parsed.family)) errors.push(fieldErrors.invalid('spec.podCIDRs', podCidrs, 'may specify no more than one CIDR for each IP family'));
    else families.add(parsed.family);
  });
  const seenAddresses: unknown[] = [];
  ((status(node)['addresses'] as unknown[] | undefined) ?? []).forEach((address, index) => {
    const entry = isPlainObject(address) ? { type: address['type'], address: address['address'] } : address;
    if (seenAddresses.some((seen) => deepEqual(seen, entry))) errors.push(fieldErrors.duplicate(`status.addresses[${index}]`, entry));
    seenAddresses.push(entry);
  });
  return errors;
}

function validateNodeUpdate(node: KubeObject, old: StoredObject): FieldError[] {
  const errors: FieldError[] = [];
  const oldSpec = spec(old as KubeObject);
  const newSpec = spec(node);
  const oldCidrs = (oldSpec['podCIDRs'] as unknown[] | undefined) ?? [];
  if (oldCidrs.length > 0 && !deepEqual(oldCidrs, newSpec['podCIDRs'] ?? [])) {
    errors.push(fieldErrors.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  const oldProviderId = text(oldSpec['providerID']);
  if (oldProviderId !== '' && oldProviderId !== text(newSpec['providerID'])) {
    errors.push(fieldErrors.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errors;
}

function readyStatus(node: KubeObject): string {
  const conditions = (status(node)['conditions'] as unknown[] | undefined) ?? [];
  const ready = conditions.find((condition) => isPlainObject(condition) && condition['type'] === 'Ready');
  let result = !isPlainObject(ready) ? 'Unknown' : ready['status'] === 'True' ? 'Ready' : 'NotReady';
  if (spec(node)['unschedulable'] === true) result += ',SchedulingDisabled';
  return result;
}

function roles(node: KubeObject): string {
  const found = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) found.add(key.slice('node-role.kubernetes.io/'.length));
    else if (key === 'kubernetes.io/role' && value !== '') found.add(value);
  }
  const list = [...found].filter((role) => role !== '').sort();
  return list.length === 0 ? '<none>' : list.join(',');
}

function firstAddress(node: KubeObject, type: string): string {
  const addresses = (status(node)['addresses'] as unknown[] | undefined) ?? [];
  const match = addresses.find((address) => isPlainObject(address) && address['type'] === type);
  return isPlainObject(match) && typeof match['address'] === 'string' ? match['address'] : '<none>';
}

function nodeInfo(node: KubeObject, field: string): string {
  const info = status(node)['nodeInfo'];
  const value = isPlainObject(info) ? text(info[field]) : '';
  return value === '' ? '<unknown>' : value;
}

export const nodeResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'nodes',
  singular: 'node',
  kind: 'Node',
  listKind: 'NodeList',
  namespaced: false,
  shortNames: ['no'],
  verbs: allVerbs,
  hasStatus: true,
  storageKey: '/nodes',
  allowCreateOnUpdate: false,
  validateName: dns1123SubdomainErrors,
  fieldSelectors: {
    ...metadataFieldSelectors(false),
    'spec.unschedulable': (node) => String(spec(node as KubeObject)['unschedulable'] === true),
  },
  patchSchema: objectPatchSchema({
    spec: { fields: { podCIDRs: { listStrategy: 'merge' } } },
    status: { fields: { addresses: { listStrategy: 'merge', mergeKey: 'type' }, conditions: conditionsPatchSchema } },
  }),
  timeFields: [
    { path: ['spec', 'taints', '*', 'timeAdded'], precision: 'seconds' },
    { path: ['status', 'conditions', '*', 'lastHeartbeatTime'], precision: 'seconds' },
    { path: ['status', 'conditions', '*', 'lastTransitionTime'], precision: 'seconds' },
  ],
  prepareForCreate(node) {
    prepare(node);
    addNotReadyTaint(node);
  },
  prepareForUpdate: (node) => prepare(node),
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  renderDefaults(node) {
    ensureObject(node, 'spec');
    const nodeStatus = ensureObject(node, 'status');
    const endpoints = ensureObject(ensureObject(nodeStatus, 'daemonEndpoints'), 'kubeletEndpoint');
    if (endpoints['Port'] === undefined) endpoints['Port'] = 0;
    const info = ensureObject(nodeStatus, 'nodeInfo');
    for (const field of nodeInfoFields) if (info[field] === undefined) info[field] = '';
  },
  table: {
    columns: [
      nameColumn,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      ageColumn,
      column('Version', 'string', 'Kubelet Version reported by the node.'),
      column('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
      column('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
      column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', 'string', 'Kernel Version reported by the node from \'uname -r\' (e.g. 3.16.0-0.bpo.4-amd64).', 1),
      column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
    ],
    cells: (node, now) => [
      node.metadata.name ?? '',
      readyStatus(node),
      roles(node),
      objectAge(node, now),
      (() => {
        const info = status(node)['nodeInfo'];
        return isPlainObject(info) ? text(info['kubeletVersion']) : '';
      })(),
      firstAddress(node, 'InternalIP'),
      firstAddress(node, 'ExternalIP'),
      nodeInfo(node, 'osImage'),
      nodeInfo(node, 'kernelVersion'),
      nodeInfo(node, 'containerRuntimeVersion'),
    ],
  },
};
