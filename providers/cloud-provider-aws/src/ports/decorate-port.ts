/**
 * Cross-cutting behaviour as decorators that keep the port's type: every method call goes
 * through `around(operation, signal, invoke)`. Operation names are derived mechanically
 * (`<service>.<method>`), never typed by hand.
 */
export type Around = (operation: string, signal: AbortSignal | undefined, invoke: () => Promise<unknown>) => Promise<unknown>;

function signalOf(parameters: readonly unknown[]): AbortSignal | undefined {
  const last = parameters[parameters.length - 1];
  if (last !== null && typeof last === 'object' && 'signal' in last) {
    const signal = (last as { signal?: unknown }).signal;
    if (signal instanceof AbortSignal) return signal;
  }
  return undefined;
}

export function decoratePort<T extends object>(port: T, service: string, around: Around): T {
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...parameters: unknown[]) =>
        around(`${service}.${property}`, signalOf(parameters), () => Promise.resolve((value as (...values: unknown[]) => unknown).apply(target, parameters)));
    },
  });
}
