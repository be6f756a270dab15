/** Classic ELB listeners: built from Service ports (upstream `buildListener`) and diffed (`syncElbListeners`). */
import { ANNOTATIONS, annotationValue, selectsPort, type Annotations, type PortSelection } from '../../../annotations.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import type { ClassicListener, ClassicListenerDescription } from '../../../ports/elb-port.js';

/** Backend protocol -> front protocol when a certificate is set. */
const FRONT_PROTOCOL_FOR_BACKEND: Readonly<Record<string, string>> = { https: 'https', http: 'https', ssl: 'ssl', tcp: 'ssl' };

export interface ListenerPort {
  name: string;
  port: number;
  nodePort: number;
  protocol: string;
}

export function buildClassicListener(port: ListenerPort, annotations: Annotations, sslPorts: PortSelection | undefined): ClassicListener {
  let protocol = port.protocol.toLowerCase();
  let instanceProtocol = protocol;
  const certificate = annotationValue(annotations, ANNOTATIONS.sslCertificate) ?? '';
  const backendProtocol = annotationValue(annotations, ANNOTATIONS.backendProtocol) ?? '';
  const listener: ClassicListener = { protocol, loadBalancerPort: port.port, instanceProtocol, instancePort: port.nodePort };
  if (certificate !== '' && selectsPort(sslPorts, port.port, port.name.toLowerCase())) {
    if (backendProtocol === '') {
      protocol = 'ssl';
      instanceProtocol = 'tcp';
    } else {
      const front = FRONT_PROTOCOL_FOR_BACKEND[backendProtocol];
      if (front === undefined) {
        throw new InvalidAnnotationError(ANNOTATIONS.backendProtocol.key, backendProtocol, `invalid backend protocol for certificate ${certificate}; expected one of https, http, ssl, tcp`);
      }
      protocol = front;
      instanceProtocol = backendProtocol;
    }
    listener.sslCertificateId = certificate;
  } else if (backendProtocol === 'http') {
    protocol = 'http';
    instanceProtocol = 'http';
  }
  listener.protocol = protocol;
  listener.instanceProtocol = instanceProtocol;
  return listener;
}

/** ARNs compare case-insensitively (upstream `awsArnEquals`). */
function sameOptionalText(left: string | undefined, right: string | undefined): boolean {
  return (left ?? '').toLowerCase() === (right ?? '').toLowerCase();
}

export function classicListenersEqual(actual: ClassicListener, expected: ClassicListener): boolean {
  return (
    sameOptionalText(actual.protocol, expected.protocol) &&
    sameOptionalText(actual.instanceProtocol, expected.instanceProtocol) &&
    actual.instancePort === expected.instancePort &&
    actual.loadBalancerPort === expected.loadBalancerPort &&
    sameOptionalText(actual.sslCertificateId, expected.sslCertificateId)
  );
}

export interface ListenerPlan {
  /** Load balancer ports whose listener must go (deleted first). */
  removals: number[];
  additions: ClassicListener[];
}

/** Pure (upstream `syncElbListeners`): listeners to delete, then to create. */
export function planClassicListeners(actual: readonly ClassicListenerDescription[], expected: readonly ClassicListener[]): ListenerPlan {
  const matched = new Set<number>();
  const removals: number[] = [];
  for (const description of actual) {
    const index = expected.findIndex((listener, position) => !matched.has(position) && classicListenersEqual(description.listener, listener));
    if (index >= 0) matched.add(index);
    else removals.push(description.listener.loadBalancerPort);
  }
  return { removals, additions: expected.filter((_, position) => !matched.has(position)) };
}
