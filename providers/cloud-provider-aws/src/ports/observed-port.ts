/** Metrics for every cloud call attempt, through core's cloud API observer. */
import { decoratePort } from './decorate-port.js';

/** The observer shape of @ccm/core's `createCloudApiObserver`. */
export interface CloudApiObserver {
  observe<T>(operation: string, call: () => Promise<T>): Promise<T>;
}

export function withObserver<T extends object>(port: T, service: string, observer: CloudApiObserver): T {
  return decoratePort(port, service, (operation, _signal, invoke) => observer.observe(operation, invoke));
}
