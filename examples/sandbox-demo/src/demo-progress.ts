import { TAINT_UNINITIALIZED } from '@ccm/core/api';
import type { V1Node, V1Service } from '@kubernetes/client-node';

export interface DemoRouteView {
  destinationCidr: string;
  targetNodeName: string;
  blackhole: boolean;
}

export interface DemoObservation {
  nodes: V1Node[];
  service: V1Service | undefined;
  routes: DemoRouteView[];
  /** Backend count of the Service's cloud load balancer, when it exists. */
  loadBalancerBackends: number | undefined;
}

export interface DemoProgress {
  /** One line per node, one for the service, one for routes: what to print when it changes. */
  lines: Map<string, string>;
  ready: boolean;
}

function isInitialized(node: V1Node): boolean {
  return (node.spec?.providerID ?? '') !== '' && !(node.spec?.taints ?? []).some((taint) => taint.key === TAINT_UNINITIALIZED);
}

function label(node: V1Node, key: string): string {
  return node.metadata?.labels?.[key] ?? '-';
}

/**
 * What the demo shows and whether everything is done: every node initialized (providerID set,
 * uninitialized taint gone), the Service has an ingress, and every pod CIDR has a live route.
 */
export function describeDemoProgress(observation: DemoObservation, expectedNodes: number): DemoProgress {
  const lines = new Map<string, string>();
  const nodes = [...observation.nodes].sort((left, right) => (left.metadata?.name ?? '').localeCompare(right.metadata?.name ?? ''));
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const addresses = (node.status?.addresses ?? []).map((address) => `${address.type}=${address.address}`).join(',');
    const state = isInitialized(node) ? 'initialized' : 'waiting   ';
    lines.set(
      `node/${name}`,
      `node ${name}: ${state} providerID=${node.spec?.providerID ?? '-'} zone=${label(node, 'topology.kubernetes.io/zone')} type=${label(node, 'node.kubernetes.io/instance-type')} addresses=${addresses || '-'}`,
    );
  }
  const ingress = (observation.service?.status?.loadBalancer?.ingress ?? []).map((entry) => entry.ip ?? entry.hostname ?? '').filter((value) => value !== '');
  const serviceName = observation.service === undefined ? '-' : `${observation.service.metadata?.namespace ?? ''}/${observation.service.metadata?.name ?? ''}`;
  const backends = observation.loadBalancerBackends === undefined ? '-' : String(observation.loadBalancerBackends);
  lines.set('service', `service ${serviceName}: ingress=${ingress.length > 0 ? ingress.join(',') : 'pending'} backends=${backends}`);

  const wantedCidrs = nodes.flatMap((node) => (node.spec?.podCIDRs ?? []).map((cidr) => ({ cidr, node: node.metadata?.name ?? '' })));
  const liveRoutes = observation.routes.filter((route) => !route.blackhole);
  const routed = wantedCidrs.filter(({ cidr, node }) => liveRoutes.some((route) => route.destinationCidr === cidr && route.targetNodeName === node));
  const routeList = [...liveRoutes]
    .sort((left, right) => left.destinationCidr.localeCompare(right.destinationCidr))
    .map((route) => `${route.destinationCidr}->${route.targetNodeName}`);
  lines.set('routes', `routes: ${routed.length}/${wantedCidrs.length} ${routeList.join(' ')}`.trimEnd());

  const ready =
    nodes.length === expectedNodes &&
    nodes.every(isInitialized) &&
    ingress.length > 0 &&
    wantedCidrs.length > 0 &&
    routed.length === wantedCidrs.length;
  return { lines, ready };
}
