/** What the load balancer operations share: the ports, the settings, the wait, the logger. */
import type { Logger } from '@ccm/core/logging';
import type { ServiceAnnotationPort } from '../../kube/service-annotations.js';
import { isOpenStackErrorKind } from '../../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { LoadBalancerNetworkPort } from '../../ports/load-balancer-network-port.js';
import type { OctaviaPort } from '../../ports/octavia-port.js';
import type { SecurityGroupPort } from '../../ports/security-group-port.js';
import type { LoadBalancerSettings } from './load-balancer-settings.js';
import { waitForActive, type ProvisioningWaitSettings } from './provisioning-wait.js';

export interface LoadBalancerContext {
  octavia: OctaviaPort;
  network: LoadBalancerNetworkPort;
  /** Neutron security groups (`manage-security-groups`). */
  securityGroups: SecurityGroupPort;
  /** Writes `load-balancer-id` and `load-balancer-address` on the Service (upstream's Service patcher). */
  serviceAnnotations: ServiceAnnotationPort;
  settings: LoadBalancerSettings;
  wait: ProvisioningWaitSettings;
  logger: Logger;
}

/** Attempts of one change that Octavia refused with 409 (immutable while PENDING_*). */
export const IMMUTABLE_RETRIES = 3;

/**
 * One change of a load balancer's children: waits for ACTIVE first (Octavia refuses changes while
 * PENDING_*), and when Octavia still answers 409 "immutable" (another writer got in between),
 * waits again and retries, up to `IMMUTABLE_RETRIES` attempts.
 */
export async function changeLoadBalancer<T>(context: LoadBalancerContext, loadBalancerId: string, change: () => Promise<T>, options?: CallOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await waitForActive(context.octavia, context.wait, loadBalancerId, options);
    try {
      return await change();
    } catch (error) {
      if (!isOpenStackErrorKind(error, 'Conflict') || attempt >= IMMUTABLE_RETRIES) throw error;
      context.logger.verbose(2, 'load balancer is immutable (409); waiting for ACTIVE and trying again', { loadBalancerId, attempt });
    }
  }
}

/** Runs `run`, treating NotFound as done. */
export async function ignoringNotFound(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!isOpenStackErrorKind(error, 'NotFound')) throw error;
  }
}
