/** Everything the load balancer operations share; built once in the composition root. */
import type { Logger } from '@ccm/core/logging';
import type { Ec2Port } from '../../ports/ec2-port.js';
import type { ElbPort } from '../../ports/elb-port.js';
import type { Elbv2Port } from '../../ports/elbv2-port.js';
import type { ClusterTagging } from '../../tags.js';
import type { ClusterInstances } from '../cluster-instances.js';
import type { LoadBalancerSettings } from './load-balancer-spec.js';
import type { SecurityGroupOperations } from './security-groups.js';
import type { SubnetOperations } from './subnets.js';

export interface LoadBalancerContext {
  ec2: Ec2Port;
  elb: ElbPort;
  elbv2: Elbv2Port;
  tagging: ClusterTagging;
  securityGroups: SecurityGroupOperations;
  subnets: SubnetOperations;
  clusterInstances: ClusterInstances;
  settings: LoadBalancerSettings;
  logger: Logger;
}

/** What deletion needs to know about a Service; read leniently so a bad annotation never blocks cleanup. */
export interface DeletionTarget {
  loadBalancerName: string;
  service: { namespace: string; name: string; uid: string };
  /** Groups named by the security-groups and extra-security-groups annotations: never deleted. */
  annotatedSecurityGroups: string[];
}

/** Chunks of at most `size` (ELB target APIs take 100 at a time). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}
