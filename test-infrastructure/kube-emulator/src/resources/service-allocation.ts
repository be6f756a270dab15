/**
 * Cluster IP and node port allocation for Services. What is in use is derived from the stored
 * Services each time, so nothing leaks when a write fails or a Service is deleted.
 */
import { fieldErrors, type FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import { ipv4ToNumber, isIPv4, numberToIpv4 } from '../util/ip.js';
import type { ResourceContext, StoredObject } from './resource-definition.js';
import { needsClusterIp, needsHealthCheckNodePort, needsNodePorts, readServiceSpec, serviceSpec, servicePorts } from './service-fields.js';

export const serviceClusterIpRange = '10.96.0.0/12';
const firstServiceIp = ipv4ToNumber('10.96.0.0');
const lastServiceIp = firstServiceIp + 2 ** 20 - 1;
/** 10.96.0.1 is conventionally the `kubernetes` Service; dynamic allocation starts after it. */
const firstDynamicServiceIp = firstServiceIp + 2;
export const nodePortRange = { first: 30000, last: 32767 };

interface InUse {
  clusterIps: Set<string>;
  nodePorts: Set<number>;
}

function inUse(context: ResourceContext, self: KubeObject): InUse {
  const clusterIps = new Set<string>();
  const nodePorts = new Set<number>();
  for (const other of context.listStored('/services')) {
    if (other.metadata.namespace === self.metadata.namespace && other.metadata.name === self.metadata.name) continue;
    const spec = readServiceSpec(other as KubeObject);
    const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [spec['clusterIP']];
    for (const ip of ips) if (typeof ip === 'string' && ip !== '' && ip !== 'None') clusterIps.add(ip);
    for (const port of servicePorts(other as KubeObject)) if (typeof port['nodePort'] === 'number') nodePorts.add(port['nodePort']);
    if (typeof spec['healthCheckNodePort'] === 'number') nodePorts.add(spec['healthCheckNodePort']);
  }
  return { clusterIps, nodePorts };
}

function allocateClusterIp(used: Set<string>): string | undefined {
  for (let candidate = firstDynamicServiceIp; candidate < lastServiceIp; candidate++) {
    const ip = numberToIpv4(candidate);
    if (!used.has(ip)) return ip;
  }
  return undefined;
}

function allocateNodePort(used: Set<number>): number | undefined {
  for (let port = nodePortRange.first; port <= nodePortRange.last; port++) if (!used.has(port)) return port;
  return undefined;
}

function checkClusterIp(ip: string, used: Set<string>): string | undefined {
  if (!isIPv4(ip)) return `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceClusterIpRange}`;
  const value = ipv4ToNumber(ip);
  if (value <= firstServiceIp || value >= lastServiceIp) {
    return `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceClusterIpRange}`;
  }
  if (used.has(ip)) return `failed to allocate IP ${ip}: provided IP is already allocated`;
  return undefined;
}

function checkNodePort(port: number, used: Set<number>): string | undefined {
  if (port < nodePortRange.first || port > nodePortRange.last) {
    return `provided port is not in the valid range. The range of valid ports is ${nodePortRange.first}-${nodePortRange.last}`;
  }
  if (used.has(port)) return 'provided port is already allocated';
  return undefined;
}

export function allocateServiceValues(service: KubeObject, old: StoredObject | undefined, context: ResourceContext): FieldError[] {
  const errors: FieldError[] = [];
  const used = inUse(context, service);
  const spec = serviceSpec(service);
  const oldSpec = old ? readServiceSpec(old as KubeObject) : {};
  if (needsClusterIp(service)) {
    const requested = typeof spec['clusterIP'] === 'string' ? spec['clusterIP'] : '';
    if (requested === '') {
      const allocated = allocateClusterIp(used.clusterIps);
      if (!allocated) errors.push(fieldErrors.invalid('spec.clusterIPs', requested, `failed to allocate IP: range ${serviceClusterIpRange} is full`));
      else {
        spec['clusterIP'] = allocated;
        spec['clusterIPs'] = [allocated];
      }
    } else if (requested !== 'None' && requested !== oldSpec['clusterIP']) {
      const problem = checkClusterIp(requested, used.clusterIps);
      if (problem) errors.push(fieldErrors.invalid('spec.clusterIPs', requested, problem));
    }
    if (spec['ipFamilies'] === undefined) spec['ipFamilies'] = ['IPv4'];
    if (spec['ipFamilyPolicy'] === undefined) spec['ipFamilyPolicy'] = 'SingleStack';
  }
  const oldNodePorts = new Set(old ? servicePorts(old as KubeObject).map((port) => port['nodePort']) : []);
  if (needsNodePorts(service)) {
    servicePorts(service).forEach((port, index) => {
      const nodePort = port['nodePort'];
      if (nodePort === undefined || nodePort === 0) {
        const allocated = allocateNodePort(used.nodePorts);
        if (allocated === undefined) errors.push(fieldErrors.invalid(`spec.ports[${index}].nodePort`, 0, 'range is full'));
        else {
          port['nodePort'] = allocated;
          used.nodePorts.add(allocated);
        }
      } else if (typeof nodePort === 'number') {
        const problem = oldNodePorts.has(nodePort) ? undefined : checkNodePort(nodePort, used.nodePorts);
        if (problem) errors.push(fieldErrors.invalid(`spec.ports[${index}].nodePort`, nodePort, problem));
        used.nodePorts.add(nodePort);
      }
    });
  }
  if (needsHealthCheckNodePort(service)) {
    const requested = spec['healthCheckNodePort'];
    if (requested === undefined || requested === 0) {
      const allocated = allocateNodePort(used.nodePorts);
      if (allocated !== undefined) spec['healthCheckNodePort'] = allocated;
    } else if (typeof requested === 'number' && requested !== oldSpec['healthCheckNodePort']) {
      const problem = checkNodePort(requested, used.nodePorts);
      if (problem) errors.push(fieldErrors.invalid('spec.healthCheckNodePort', requested, problem));
    }
  }
  return errors;
}
