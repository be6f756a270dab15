/**
 * Events the GCE provider records on a Service itself (upstream's recorder of source
 * `g-cloudprovider`), e.g. the firewall change a Shared VPC's network admin has to make.
 */
import type { EventRecorder } from '@ccm/core/kube';
import type { V1Service } from '@kubernetes/client-node';

/** What the load balancers need to tell about a Service (the consumer's port). */
export interface ServiceEventPort {
  normal(service: V1Service, reason: string, message: string): void;
}

/** Upstream's event source component of the GCE cloud (`gce.go`). */
export const GCE_EVENT_COMPONENT = 'g-cloudprovider';

/** Records through the runtime's event recorder once `attach`ed in `initialize`; before that, logs only. */
export class KubeServiceEvents implements ServiceEventPort {
  #recorder: EventRecorder | undefined;

  attach(recorder: EventRecorder): void {
    this.#recorder = recorder;
  }

  normal(service: V1Service, reason: string, message: string): void {
    this.#recorder?.event({ kind: 'Service', apiVersion: 'v1', metadata: service.metadata ?? {} }, 'Normal', reason, message);
  }
}
