/**
 * The coalesce stage: single-key methods of a port answered through a `Coalescer`, so that
 * concurrent calls (one per node, from every controller) become one batch call of the port.
 * The port keeps its type; the coalescer's `batchLoad` calls the port it wraps.
 *
 *   const sandbox = coalescePort(client, {
 *     getInstance: coalesceBy((id) => id, new Coalescer({ name: 'getInstance', batchLoad: (ids, { signal }) => ..., resolveMissing: () => undefined })),
 *   });
 */
import type { Coalescer } from './coalescer.js';
import { signalOfCall, type PortMethodName } from './wrap-port.js';

/** How one method's calls reach a coalescer. */
export interface CoalescedMethod<Arguments extends unknown[], Value> {
  load(parameters: Arguments, signal: AbortSignal | undefined): Promise<Value>;
}

/** Calls of a method become `coalescer.load(key(...arguments))`; the caller's signal goes along. */
export function coalesceBy<Arguments extends unknown[], Key, Value>(key: (...parameters: Arguments) => Key, coalescer: Coalescer<Key, Value>): CoalescedMethod<Arguments, Value> {
  return {
    load(parameters, signal) {
      return coalescer.load(key(...parameters), signal === undefined ? {} : { signal });
    },
  };
}

export type CoalescedMethods<Port> = {
  [Method in PortMethodName<Port>]?: Port[Method] extends (...parameters: infer Arguments) => Promise<infer Value> ? CoalescedMethod<Arguments, Value> : never;
};

/** `port` with the listed methods answered by their coalescers; every other member untouched. */
export function coalescePort<Port extends object>(port: Port, methods: CoalescedMethods<Port>): Port {
  const routes = new Map<string, CoalescedMethod<unknown[], unknown>>();
  for (const [method, route] of Object.entries(methods)) {
    if (route !== undefined) routes.set(method, route as CoalescedMethod<unknown[], unknown>);
  }
  const wrapped = new Map<string, (...parameters: unknown[]) => Promise<unknown>>();
  for (const [method, route] of routes) wrapped.set(method, (...parameters: unknown[]) => route.load(parameters, signalOfCall(parameters)));
  return new Proxy(port, {
    get(object, property, receiver) {
      if (typeof property === 'string') {
        const route = wrapped.get(property);
        if (route !== undefined) return route;
      }
      return Reflect.get(object, property, receiver);
    },
  });
}
