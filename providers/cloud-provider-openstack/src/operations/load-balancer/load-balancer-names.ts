/**
 * Names and descriptions of what the CCM creates in Octavia and Neutron, as upstream spells them
 * (`lbFormat`, `listenerFormat`, ... in `pkg/openstack/loadbalancer.go`): OpenStack names are at
 * most 255 characters, longer ones are cut (upstream `cpoutil.Sprintf255`). The descriptions are
 * how ownership is proven before a delete.
 */

/** Prefix of every load balancer the CCM creates (upstream `servicePrefix`). */
export const SERVICE_PREFIX = 'kube_service_';

export const MAX_NAME_LENGTH = 255;

export function cutTo255(value: string): string {
  return value.length > MAX_NAME_LENGTH ? value.slice(0, MAX_NAME_LENGTH) : value;
}

export interface ServiceIdentity {
  namespace: string;
  name: string;
}

/** `kube_service_<cluster>_<namespace>_<name>`, cut to 255. */
export function loadBalancerName(clusterName: string, service: ServiceIdentity): string {
  return cutTo255(`${SERVICE_PREFIX}${clusterName}_${service.namespace}_${service.name}`);
}

export const listenerName = (portIndex: number, lbName: string): string => cutTo255(`listener_${portIndex}_${lbName}`);
export const poolName = (portIndex: number, lbName: string): string => cutTo255(`pool_${portIndex}_${lbName}`);
export const monitorName = (portIndex: number, lbName: string): string => cutTo255(`monitor_${portIndex}_${lbName}`);

/** Upstream `createLoadBalancer` description. */
export function loadBalancerDescription(clusterName: string, service: ServiceIdentity): string {
  return `Kubernetes external service ${service.namespace}/${service.name} from cluster ${clusterName}`;
}

/** The start of every floating IP description upstream writes (`deleteFIPIfCreatedByProvider` matches it). */
export const FLOATING_IP_DESCRIPTION_PREFIX = 'Floating IP for Kubernetes external service';

/** Upstream `ensureFloatingIP` description. */
export function floatingIpDescription(clusterName: string, service: ServiceIdentity): string {
  return `${FLOATING_IP_DESCRIPTION_PREFIX} ${service.namespace}/${service.name} from cluster ${clusterName}`;
}

/**
 * Whether a floating IP on the Service's VIP port was made by a CCM, ours or upstream's, of any
 * cluster name (upstream `deleteFIPIfCreatedByProvider`: the description contains the prefix): such
 * an address is deleted with the Service; any other is only detached.
 */
export function isProviderMadeFloatingIp(description: string | undefined): boolean {
  return (description ?? '').includes(FLOATING_IP_DESCRIPTION_PREFIX);
}

/**
 * The Neutron port that reserves the VIP address when Octavia's network driver cannot create
 * one in Neutron (see `VipPortMode`): not upstream (upstream lets Octavia create the VIP port).
 */
export const vipPortName = (lbName: string): string => cutTo255(`vip_${lbName}`);

export function vipPortDescription(clusterName: string, service: ServiceIdentity): string {
  return `VIP port for Kubernetes external service ${service.namespace}/${service.name} from cluster ${clusterName}`;
}
