/** Service validation: the rules of kube's ValidateService/ValidateServiceUpdate that clients and CCMs trip over. */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { isIp, parseCidr } from '../util/ip.js';
import { isPlainObject } from '../util/json.js';
import { expectType, text } from './common.js';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from './name-validation.js';
import { validateLabels } from './object-meta-validation.js';
import type { StoredObject } from './resource-definition.js';
import { isHeadless, readServiceSpec, servicePorts, serviceTypes, serviceType } from './service-fields.js';

const protocols = ['SCTP', 'TCP', 'UDP'];
const trafficPolicies = ['Cluster', 'Local'];

export function checkServiceTypes(service: KubeObject): void {
  const check = (path: string, value: unknown, expected: Parameters<typeof expectType>[4]): void => expectType('Service', 'v1', path, value, expected);
  check('Service.spec', service['spec'], 'object');
  check('Service.status', service['status'], 'object');
  const spec = readServiceSpec(service);
  check('ServiceSpec.spec.type', spec['type'], 'string');
  check('ServiceSpec.spec.ports', spec['ports'], 'array');
  check('ServiceSpec.spec.selector', spec['selector'], 'object');
  check('ServiceSpec.spec.clusterIP', spec['clusterIP'], 'string');
  for (const port of (spec['ports'] as unknown[] | undefined) ?? []) {
    check('ServiceSpec.spec.ports', port, 'object');
    if (isPlainObject(port)) {
      check('ServicePort.spec.ports.port', port['port'], 'integer');
      check('ServicePort.spec.ports.nodePort', port['nodePort'], 'integer');
    }
  }
  const status = isPlainObject(service['status']) ? service['status'] : {};
  const loadBalancer = status['loadBalancer'];
  check('ServiceStatus.status.loadBalancer', loadBalancer, 'object');
  if (isPlainObject(loadBalancer)) check('LoadBalancerStatus.status.loadBalancer.ingress', loadBalancer['ingress'], 'array');
}

function validatePorts(service: KubeObject, type: string): FieldError[] {
  const errors: FieldError[] = [];
  const ports = servicePorts(service);
  if (ports.length === 0 && type !== 'ExternalName' && !isHeadless(service)) errors.push(fieldErrors.required('spec.ports'));
  const names = new Set<string>();
  const identities = new Set<string>();
  ports.forEach((port, index) => {
    const path = `spec.ports[${index}]`;
    const name = text(port['name']);
    if (ports.length > 1 && name === '') errors.push(fieldErrors.required(`${path}.name`));
    if (name !== '') {
      for (const message of dns1123LabelErrors(name)) errors.push(fieldErrors.invalid(`${path}.name`, name, message));
      if (names.has(name)) errors.push(fieldErrors.duplicate(`${path}.name`, name));
      names.add(name);
    }
    const number = port['port'];
    if (typeof number !== 'number' || number < 1 || number > 65535) errors.push(fieldErrors.invalid(`${path}.port`, number ?? 0, 'must be between 1 and 65535, inclusive'));
    const protocol = text(port['protocol']);
    if (!protocols.includes(protocol)) errors.push(fieldErrors.notSupported(`${path}.protocol`, protocol, protocols));
    const identity = `${String(number)}/${protocol}`;
    if (identities.has(identity)) errors.push(fieldErrors.duplicate(path, { port: number, protocol }));
    identities.add(identity);
    const targetPort = port['targetPort'];
    if (typeof targetPort === 'number' && (targetPort < 1 || targetPort > 65535)) errors.push(fieldErrors.invalid(`${path}.targetPort`, targetPort, 'must be between 1 and 65535, inclusive'));
    if (typeof targetPort === 'string' && !/^(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(targetPort)) {
      errors.push(fieldErrors.invalid(`${path}.targetPort`, targetPort, 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'));
    }
    const nodePort = port['nodePort'];
    if (nodePort !== undefined && nodePort !== 0 && type === 'ClusterIP') errors.push(fieldErrors.forbidden(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    if (typeof nodePort === 'number' && (nodePort < 0 || nodePort > 65535)) errors.push(fieldErrors.invalid(`${path}.nodePort`, nodePort, 'must be between 1 and 65535, inclusive'));
  });
  return errors;
}

function validateIngress(service: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const status = isPlainObject(service['status']) ? service['status'] : {};
  const loadBalancer = isPlainObject(status['loadBalancer']) ? status['loadBalancer'] : {};
  const ingress = Array.isArray(loadBalancer['ingress']) ? loadBalancer['ingress'] : [];
  ingress.forEach((entry: unknown, index) => {
    const path = `status.loadBalancer.ingress[${index}]`;
    const item = isPlainObject(entry) ? entry : {};
    const ip = text(item['ip']);
    const hostname = text(item['hostname']);
    if (ip !== '' && !isIp(ip)) errors.push(fieldErrors.invalid(`${path}.ip`, ip, 'must be a valid IP address'));
    if (hostname !== '') {
      for (const message of dns1123SubdomainErrors(hostname)) errors.push(fieldErrors.invalid(`${path}.hostname`, hostname, message));
      if (isIp(hostname)) errors.push(fieldErrors.invalid(`${path}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
    const ipMode = item['ipMode'];
    if (ipMode !== undefined) {
      if (ip === '') errors.push(fieldErrors.forbidden(`${path}.ipMode`, 'may not be specified when `ip` is not'));
      else if (ipMode !== 'VIP' && ipMode !== 'Proxy') errors.push(fieldErrors.notSupported(`${path}.ipMode`, ipMode, ['Proxy', 'VIP']));
    }
  });
  return errors;
}

export function validateService(service: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = readServiceSpec(service);
  const type = serviceType(service);
  if (!serviceTypes.includes(type)) {
    errors.push(fieldErrors.notSupported('spec.type', type, serviceTypes));
    return errors;
  }
  errors.push(...validatePorts(service, type));
  const clusterIp = text(spec['clusterIP']);
  if (type === 'ExternalName') {
    const externalName = text(spec['externalName']);
    if (externalName === '') errors.push(fieldErrors.required('spec.externalName'));
    else for (const message of dns1123SubdomainErrors(externalName.replace(/\.$/, ''))) errors.push(fieldErrors.invalid('spec.externalName', externalName, message));
    if (clusterIp !== '') errors.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
  } else if (clusterIp !== '' && clusterIp !== 'None' && !isIp(clusterIp)) {
    errors.push(fieldErrors.invalid('spec.clusterIPs[0]', clusterIp, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  }
  if (clusterIp === 'None' && type !== 'ClusterIP') errors.push(fieldErrors.invalid('spec.clusterIPs[0]', 'None', 'may not be set to \'None\' for LoadBalancer or NodePort services'));
  const affinity = text(spec['sessionAffinity']);
  if (!['ClientIP', 'None'].includes(affinity)) errors.push(fieldErrors.notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  const externalPolicy = spec['externalTrafficPolicy'];
  if (externalPolicy !== undefined) {
    if (type !== 'NodePort' && type !== 'LoadBalancer') errors.push(fieldErrors.invalid('spec.externalTrafficPolicy', externalPolicy, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
    else if (!trafficPolicies.includes(text(externalPolicy))) errors.push(fieldErrors.notSupported('spec.externalTrafficPolicy', externalPolicy, trafficPolicies));
  }
  const internalPolicy = spec['internalTrafficPolicy'];
  if (internalPolicy !== undefined && !trafficPolicies.includes(text(internalPolicy))) errors.push(fieldErrors.notSupported('spec.internalTrafficPolicy', internalPolicy, trafficPolicies));
  const loadBalancerClass = spec['loadBalancerClass'];
  if (loadBalancerClass !== undefined) {
    if (type !== 'LoadBalancer') errors.push(fieldErrors.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
    else for (const message of qualifiedNameErrors(text(loadBalancerClass))) errors.push(fieldErrors.invalid('spec.loadBalancerClass', loadBalancerClass, message));
  }
  const sourceRanges = spec['loadBalancerSourceRanges'];
  if (Array.isArray(sourceRanges) && sourceRanges.length > 0) {
    if (type !== 'LoadBalancer') errors.push(fieldErrors.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    sourceRanges.forEach((range: unknown, index) => {
      if (typeof range !== 'string' || !parseCidr(range.trim())) errors.push(fieldErrors.invalid(`spec.loadBalancerSourceRanges[${index}]`, range, 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '));
    });
  }
  if (spec['allocateLoadBalancerNodePorts'] !== undefined && type !== 'LoadBalancer') {
    errors.push(fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  errors.push(...validateLabels(spec['selector'], 'spec.selector'));
  errors.push(...validateIngress(service));
  return errors;
}

export function validateServiceUpdate(service: KubeObject, old: StoredObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = readServiceSpec(service);
  const oldSpec = readServiceSpec(old as KubeObject);
  const bothNeedIp = serviceType(service) !== 'ExternalName' && serviceType(old as KubeObject) !== 'ExternalName';
  const oldIp = text(oldSpec['clusterIP']);
  if (bothNeedIp && oldIp !== '' && text(spec['clusterIP']) !== oldIp) {
    errors.push(fieldErrors.invalid('spec.clusterIPs[0]', text(spec['clusterIP']), 'may not change once set'));
  }
  const oldClass = oldSpec['loadBalancerClass'];
  if (serviceType(old as KubeObject) === 'LoadBalancer' && serviceType(service) === 'LoadBalancer' && oldClass !== spec['loadBalancerClass']) {
    errors.push(fieldErrors.invalid('spec.loadBalancerClass', spec['loadBalancerClass'] ?? null, 'may not change once set'));
  }
  return errors;
}

export { dns1035LabelErrors as serviceNameErrors };
