/** core/v1 Service: namespaced, with a status subresource, cluster IP and node port allocation. */
import type { KubeObject } from '../api/kube-object.js';
import { conditionsPatchSchema, objectPatchSchema } from '../patch/patch-schema.js';
import { isPlainObject } from '../util/json.js';
import { allVerbs, ageColumn, column, metadataFieldSelectors, nameColumn, objectAge, text } from './common.js';
import type { ResourceDefinition } from './resource-definition.js';
import { allocateServiceValues } from './service-allocation.js';
import { prepareServiceForCreate, prepareServiceForUpdate, renderServiceDefaults } from './service-defaults.js';
import { readServiceSpec, servicePorts, serviceType } from './service-fields.js';
import { checkServiceTypes, serviceNameErrors, validateService, validateServiceUpdate } from './service-validation.js';

function externalIp(service: KubeObject): string {
  const type = serviceType(service);
  const spec = readServiceSpec(service);
  const externalIps = Array.isArray(spec['externalIPs']) ? spec['externalIPs'].filter((ip): ip is string => typeof ip === 'string') : [];
  if (type === 'ExternalName') return text(spec['externalName']);
  if (type === 'LoadBalancer') {
    const status = isPlainObject(service['status']) ? service['status'] : {};
    const loadBalancer = isPlainObject(status['loadBalancer']) ? status['loadBalancer'] : {};
    const ingress = Array.isArray(loadBalancer['ingress']) ? loadBalancer['ingress'] : [];
    const addresses = ingress
      .filter(isPlainObject)
      .map((entry) => text(entry['ip']) || text(entry['hostname']))
      .filter((address) => address !== '');
    const all = [...addresses, ...externalIps];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return externalIps.length > 0 ? externalIps.join(',') : '<none>';
}

function ports(service: KubeObject): string {
  const rendered = servicePorts(service).map((port) => {
    const nodePort = typeof port['nodePort'] === 'number' && port['nodePort'] !== 0 ? `:${port['nodePort']}` : '';
    return `${String(port['port'])}${nodePort}/${text(port['protocol']) || 'TCP'}`;
  });
  return rendered.length > 0 ? rendered.join(',') : '<none>';
}

function selector(service: KubeObject): string {
  const value = readServiceSpec(service)['selector'];
  if (!isPlainObject(value) || Object.keys(value).length === 0) return '<none>';
  return Object.entries(value)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([key, label]) => `${key}=${String(label)}`)
    .join(',');
}

export const serviceResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  plural: 'services',
  singular: 'service',
  kind: 'Service',
  listKind: 'ServiceList',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  verbs: allVerbs,
  hasStatus: true,
  storageKey: '/services',
  allowCreateOnUpdate: false,
  returnsDeletedObject: true,
  validateName: serviceNameErrors,
  fieldSelectors: {
    ...metadataFieldSelectors(true),
    'spec.clusterIP': (service) => text(readServiceSpec(service as KubeObject)['clusterIP']),
    'spec.type': (service) => text(readServiceSpec(service as KubeObject)['type']),
  },
  patchSchema: objectPatchSchema({
    spec: { fields: { ports: { listStrategy: 'merge', mergeKey: 'port' } } },
    status: { fields: { conditions: conditionsPatchSchema } },
  }),
  timeFields: [{ path: ['status', 'conditions', '*', 'lastTransitionTime'], precision: 'seconds' }],
  prepareForCreate(service) {
    checkServiceTypes(service);
    prepareServiceForCreate(service);
  },
  prepareForUpdate(service, old) {
    checkServiceTypes(service);
    prepareServiceForUpdate(service, old);
  },
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  allocate: allocateServiceValues,
  renderDefaults: renderServiceDefaults,
  table: {
    columns: [
      nameColumn,
      column('Type', 'string', 'type determines how the Service is exposed.'),
      column('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
      column('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
      column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
      ageColumn,
      column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
    ],
    cells: (service, now) => {
      const clusterIp = text(readServiceSpec(service)['clusterIP']);
      return [service.metadata.name ?? '', serviceType(service), clusterIp === '' ? '<none>' : clusterIp, externalIp(service), ports(service), objectAge(service, now), selector(service)];
    },
  },
};
