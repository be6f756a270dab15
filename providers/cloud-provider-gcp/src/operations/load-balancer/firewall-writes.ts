/**
 * Firewall writes of the load balancers, as upstream makes them on a Shared VPC (XPN: the network
 * belongs to another project, `network-project-id`): a 403 there means the CCM's service account
 * may not change the host project's firewalls, so upstream (`gce_loadbalancer.go`
 * `createFirewall`/`updateFirewall`/`ensureFirewallDeleted`) raises a Normal event
 * `LoadBalancerManualChange` holding the `gcloud` command a network admin runs, and carries on.
 * Outside XPN, or for any other error, the write fails as before.
 */
import type { CallOptions } from '@ccm/core/cloud';
import type { V1Service } from '@kubernetes/client-node';
import { asGceApiError, isGceErrorKind } from '../../errors.js';
import type { ServiceEventPort } from '../../kube/service-events.js';
import type { ComputePort, GceFirewall } from '../../ports/compute-port.js';

/** Upstream `eventReasonManualChange`. */
export const MANUAL_CHANGE_REASON = 'LoadBalancerManualChange';

const lastSegment = (link: string): string => link.split('/').at(-1) ?? link;

/** Upstream `firewallToGcloudArgs`: ports `proto:port`, ranges and tags sorted, so a repeat is the same event. */
function gcloudArguments(firewall: GceFirewall, project: string): string {
  const allow = firewall.allowed.flatMap((allowed) => (allowed.ports ?? []).map((port) => `${allowed.IPProtocol}:${port}`)).sort();
  return `--description ${JSON.stringify(firewall.description ?? '')} --allow ${allow.join(',')} --source-ranges ${[...firewall.sourceRanges].sort().join(',')} --target-tags ${[...firewall.targetTags].sort().join(',')} --project ${project}`;
}

/** Upstream `FirewallToGCloudCreateCmd`. */
export function gcloudCreateCommand(firewall: GceFirewall, project: string): string {
  return `gcloud compute firewall-rules create ${firewall.name} --network ${lastSegment(firewall.network)} ${gcloudArguments(firewall, project)}`;
}

/** Upstream `FirewallToGCloudUpdateCmd`. */
export function gcloudUpdateCommand(firewall: GceFirewall, project: string): string {
  return `gcloud compute firewall-rules update ${firewall.name} ${gcloudArguments(firewall, project)}`;
}

/** Upstream `FirewallToGCloudDeleteCmd`. */
export function gcloudDeleteCommand(name: string, project: string): string {
  return `gcloud compute firewall-rules delete ${name} --project ${project}`;
}

const isForbidden = (error: unknown): boolean => asGceApiError(error)?.httpStatus === 403;

export interface FirewallWritesContext {
  compute: ComputePort;
  /** The project of the network (firewalls live there). */
  networkProject: string;
  /** Whether the network is another project's (Shared VPC / XPN). */
  onXpn: boolean;
  events: ServiceEventPort;
}

export class FirewallWrites {
  readonly #context: FirewallWritesContext;

  constructor(context: FirewallWritesContext) {
    this.#context = context;
  }

  /** Creates the firewall; one that already exists is fine. */
  async insert(service: V1Service, firewall: GceFirewall, options?: CallOptions): Promise<void> {
    await this.#write(service, () => gcloudCreateCommand(firewall, this.#context.networkProject), async () => {
      try {
        await this.#context.compute.insertFirewall(firewall, options);
      } catch (error) {
        if (!isGceErrorKind(error, 'AlreadyExists')) throw error;
      }
    });
  }

  async patch(service: V1Service, firewall: GceFirewall, options?: CallOptions): Promise<void> {
    await this.#write(service, () => gcloudUpdateCommand(firewall, this.#context.networkProject), () => this.#context.compute.patchFirewall(firewall, options));
  }

  /** Deletes the firewall; one that is gone is fine. */
  async delete(service: V1Service, name: string, options?: CallOptions): Promise<void> {
    await this.#write(service, () => gcloudDeleteCommand(name, this.#context.networkProject), async () => {
      try {
        await this.#context.compute.deleteFirewall(name, options);
      } catch (error) {
        if (!isGceErrorKind(error, 'NotFound')) throw error;
      }
    });
  }

  async #write(service: V1Service, command: () => string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!this.#context.onXpn || !isForbidden(error)) throw error;
      this.#context.events.normal(service, MANUAL_CHANGE_REASON, `Firewall change required by security admin: \`${command()}\``);
    }
  }
}
