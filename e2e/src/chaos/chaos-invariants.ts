/**
 * The invariants a chaos run must hold once the faults stopped and the CCM converged, as pure
 * checks over what the scenario read back (the cloud through the simulator's own API, the
 * cluster through the API server, the proxies' records). Each returns its violations.
 */
import { LABEL_INSTANCE_TYPE, LABEL_REGION, LABEL_ZONE, TAINT_UNINITIALIZED } from '@ccm/core/api';
import type { ProxyRecord } from '@ccm/testing/chaos';
import type { CloudLoadBalancerView, CloudRouteView, DriverInstance } from '@ccm/testing/conformance';
import type { KubeNode, KubeService, NodeAddress } from '../harness/kube-objects.js';
import { eligibleBackendNames, expectedNodeAddresses } from '../conformance/expectations.js';

const sameList = (left: readonly unknown[], right: readonly unknown[]): boolean => JSON.stringify(left) === JSON.stringify(right);

/** Every node whose instance lives: present, initialized, with the instance's providerID, labels and addresses. */
export function uninitializedNodes(nodes: readonly KubeNode[], living: ReadonlyMap<string, { instance: DriverInstance; kubeletAddresses: NodeAddress[] }>): string[] {
  const byName = new Map(nodes.map((node) => [node.metadata.name ?? '', node]));
  const violations: string[] = [];
  for (const [name, { instance, kubeletAddresses }] of living) {
    const node = byName.get(name);
    if (node === undefined) {
      violations.push(`node ${name} is missing`);
      continue;
    }
    if ((node.spec?.taints ?? []).some((taint) => taint.key === TAINT_UNINITIALIZED)) violations.push(`node ${name} still has the uninitialized taint`);
    if (node.spec?.providerID !== instance.expectedProviderId) violations.push(`node ${name} providerID ${node.spec?.providerID ?? '(none)'}, expected ${instance.expectedProviderId}`);
    const labels = node.metadata.labels ?? {};
    const expectLabel = (key: string, value: string | undefined): void => {
      if (value !== undefined && labels[key] !== value) violations.push(`node ${name} label ${key}=${labels[key] ?? '(none)'}, expected ${value}`);
    };
    expectLabel(LABEL_INSTANCE_TYPE, instance.expectedInstanceType);
    expectLabel(LABEL_ZONE, instance.expectedZone);
    expectLabel(LABEL_REGION, instance.expectedRegion);
    const expected = expectedNodeAddresses(instance.expectedAddresses, kubeletAddresses);
    const actual = (node.status?.addresses ?? []).map(({ type, address }) => ({ type, address }));
    if (!sameList(actual, expected)) violations.push(`node ${name} addresses ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
  return violations;
}

/** Every LoadBalancer Service has a cloud LB with its ports and every eligible node as a backend. */
export function loadBalancerMismatches(services: ReadonlyArray<{ service: KubeService; view: CloudLoadBalancerView }>, nodes: readonly KubeNode[]): string[] {
  const eligible = eligibleBackendNames(nodes);
  const violations: string[] = [];
  for (const { service, view } of services) {
    const name = service.metadata.name ?? '';
    if (!view.exists) {
      violations.push(`service ${name} has no cloud load balancer`);
      continue;
    }
    const ports = (service.spec?.ports ?? []).map((port) => port.port).sort((left, right) => left - right);
    const cloudPorts = [...view.ports].sort((left, right) => left - right);
    if (!sameList(cloudPorts, ports)) violations.push(`service ${name}: cloud ports ${JSON.stringify(cloudPorts)}, spec ports ${JSON.stringify(ports)}`);
    // Membership: moto lists an instance registered twice (after a retried or replayed registration) twice; AWS does not.
    const backends = [...new Set(view.backendNodeNames)].sort();
    if (!sameList(backends, eligible)) violations.push(`service ${name}: cloud backends ${JSON.stringify(backends)}, eligible nodes ${JSON.stringify(eligible)}`);
    if ((service.status?.loadBalancer?.ingress ?? []).length === 0) violations.push(`service ${name} has no ingress in its status`);
  }
  return violations;
}

/** Every node with a pod CIDR has a (non-blackhole) route to it. */
export function missingRoutes(nodes: readonly KubeNode[], routes: readonly CloudRouteView[]): string[] {
  const violations: string[] = [];
  for (const node of nodes) {
    const cidr = node.spec?.podCIDR;
    if (cidr === undefined) continue;
    const name = node.metadata.name ?? '';
    if (!routes.some((route) => route.destinationCidr === cidr && route.targetNodeName === name && route.blackhole !== true)) {
      violations.push(`no route ${cidr} -> ${name}`);
    }
  }
  return violations;
}

/**
 * Nodes the CCM deleted (successful `delete nodes` through the kube proxy) although their
 * instance had not been deleted before: a Ready node deleted by mistake.
 */
export function wrongNodeDeletions(kubeRecords: readonly ProxyRecord[], instanceDeletedAt: ReadonlyMap<string, number>): string[] {
  const violations: string[] = [];
  for (const record of kubeRecords) {
    if (record.operation !== 'delete nodes' || record.status < 200 || record.status >= 300) continue;
    const name = decodeURIComponent(new URL(record.path, 'http://proxy').pathname.split('/').pop() ?? '');
    const deletedAt = instanceDeletedAt.get(name);
    if (deletedAt === undefined || deletedAt > record.startedAt) violations.push(`${record.replica} deleted node ${name} whose instance still existed`);
  }
  return violations;
}

/** Services the scenario deleted that are still there (a finalizer left behind). */
export function servicesLeftWithFinalizer(remaining: readonly KubeService[], deletedNames: ReadonlySet<string>): string[] {
  return remaining
    .filter((service) => deletedNames.has(service.metadata.name ?? ''))
    .map((service) => `service ${service.metadata.name} still exists after deletion (finalizers ${JSON.stringify(service.metadata.finalizers ?? [])})`);
}

/** Cloud resources the driver still finds owned by deleted Services or nodes. */
export function leakedResourceViolations(leaked: readonly string[]): string[] {
  return leaked.map((resource) => `leaked: ${resource}`);
}
