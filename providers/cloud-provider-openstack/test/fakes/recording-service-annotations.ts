/** The Service annotation writer of the tests: records what the load balancer writes. */
import type { V1Service } from '@kubernetes/client-node';
import { annotationsToWrite, type ServiceAnnotationPort } from '../../src/kube/service-annotations.js';

/** Records each write of annotations the Service lacks or holds with another value (as the real writer patches). */
export class RecordingServiceAnnotations implements ServiceAnnotationPort {
  readonly writes: Array<{ service: string; annotations: Record<string, string> }> = [];

  async write(service: V1Service, annotations: Readonly<Record<string, string>>): Promise<void> {
    const changed = annotationsToWrite(service, annotations);
    if (Object.keys(changed).length > 0) this.writes.push({ service: `${service.metadata?.namespace}/${service.metadata?.name}`, annotations: changed });
  }
}
