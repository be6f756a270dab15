import type { V1Service } from '@kubernetes/client-node';
import { hasFinalizer, type ServiceFinalizerPort } from '../../src/kube/service-finalizers.js';

const keyOf = (service: V1Service): string => `${service.metadata?.namespace ?? 'default'}/${service.metadata?.name ?? ''}`;

/**
 * The Services' finalizers without an API server: keeps what the API server would hold per Service
 * (starting from the finalizers the Service arrived with) and records each write. Like the real
 * port, it decides from the object it is given and never changes that object.
 */
export class FakeServiceFinalizers implements ServiceFinalizerPort {
  readonly writes: string[] = [];
  readonly #stored = new Map<string, string[]>();

  /** The finalizers the API server would now hold for `service`. */
  of(service: V1Service): string[] {
    return this.#stored.get(keyOf(service)) ?? [...(service.metadata?.finalizers ?? [])];
  }

  async add(service: V1Service, finalizer: string): Promise<void> {
    if (hasFinalizer(service, finalizer)) return;
    const stored = this.of(service);
    if (!stored.includes(finalizer)) stored.push(finalizer);
    this.#stored.set(keyOf(service), stored);
    this.writes.push(`add ${finalizer}`);
  }

  async remove(service: V1Service, finalizer: string): Promise<void> {
    if (!hasFinalizer(service, finalizer)) return;
    this.#stored.set(keyOf(service), this.of(service).filter((item) => item !== finalizer));
    this.writes.push(`remove ${finalizer}`);
  }
}
