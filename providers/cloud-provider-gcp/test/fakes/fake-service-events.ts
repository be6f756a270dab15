import type { V1Service } from '@kubernetes/client-node';
import type { ServiceEventPort } from '../../src/kube/service-events.js';

/** Records the events the provider raises on Services: `namespace/name reason message`. */
export class FakeServiceEvents implements ServiceEventPort {
  readonly recorded: Array<{ service: string; reason: string; message: string }> = [];

  normal(service: V1Service, reason: string, message: string): void {
    this.recorded.push({ service: `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`, reason, message });
  }
}
