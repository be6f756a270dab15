/**
 * The one decorator mechanism of the port pipeline: a port (an object of async methods) comes
 * back as the same port type, every method call going through `around`. Stages (observe, budget,
 * retry, a provider's own) are `PortAround`s; `composeCloudPort` chains them.
 *
 *   const ec2 = wrapPort(sdkEc2Port, observeCalls(observer), { name: 'ec2' }); // ec2.describeInstances, ...
 *
 * Operation names are derived mechanically (`<name>.<method>`, or the bare method without a
 * name) unless `operations` names a method explicitly (kept where metrics already use other
 * names). Properties that are not functions pass through untouched.
 */

type AnyFunction = (...parameters: never[]) => unknown;

/** Names of the port's methods. */
export type PortMethodName<Port> = { [Key in keyof Port & string]: Port[Key] extends AnyFunction ? Key : never }[keyof Port & string];

/** Names of object properties that are ports themselves (vSphere's `tagging`). */
export type NestedPortKey<Port> = {
  [Key in keyof Port & string]: Port[Key] extends AnyFunction ? never : Port[Key] extends object ? Key : never;
}[keyof Port & string];

/** `method` or `nested.method`. */
export type PortMethodPath<Port> = PortMethodName<Port> | { [Key in NestedPortKey<Port>]: `${Key}.${PortMethodName<Port[Key]>}` }[NestedPortKey<Port>];

export type PortOperationNames<Port> = { readonly [Path in PortMethodPath<Port>]?: string };

export interface PortNaming<Port> {
  /** Prefix of operation names: `<name>.<method>`. Without it the method path is the operation name. */
  name?: string;
  /** Operation names of methods that are not named mechanically (metric labels in use elsewhere). */
  operations?: PortOperationNames<Port>;
  /** Properties that are ports themselves: their methods are wrapped too, as `<property>.<method>`. */
  nested?: readonly NestedPortKey<Port>[];
  /** Methods called as they are, through no stage (e.g. `close`). */
  passThrough?: readonly PortMethodPath<Port>[];
}

/** One call of a port method, as the stages see it. */
export interface PortCall {
  /** Metrics label, budget operation and error prefix: `ec2.describeInstances`. */
  readonly operation: string;
  /** The method's path on the port: `describeInstances`, `tagging.getTag`. */
  readonly method: string;
  /** The caller's abort signal: the last argument when it is one, or that argument's `signal`. */
  readonly signal: AbortSignal | undefined;
  /** The call's arguments (read by the upstream metric series for their region/zone/resource group labels). */
  readonly args: readonly unknown[];
}

/** A stage: runs `invoke` (the rest of the pipeline, as often as it likes) for one call. */
export type PortAround = <T>(call: PortCall, invoke: () => Promise<T>) => Promise<T>;

/** The caller's signal: ports take it last, as `signal` or as `{ signal }`. */
export function signalOfCall(parameters: readonly unknown[]): AbortSignal | undefined {
  const last = parameters.at(-1);
  if (last instanceof AbortSignal) return last;
  if (last !== null && typeof last === 'object' && 'signal' in last) {
    const signal = (last as { signal?: unknown }).signal;
    if (signal instanceof AbortSignal) return signal;
  }
  return undefined;
}

/** The operation name of the method at `path`. */
export function operationNameOf<Port>(path: string, naming: PortNaming<Port>): string {
  const named = (naming.operations as Readonly<Record<string, string | undefined>> | undefined)?.[path];
  if (named !== undefined) return named;
  return naming.name === undefined || naming.name === '' ? path : `${naming.name}.${path}`;
}

/** Runs `around` outermost first: `chainArounds(a, b)(call, invoke)` is `a(call, () => b(call, invoke))`. */
export function chainArounds(...arounds: readonly PortAround[]): PortAround {
  return <T>(call: PortCall, invoke: () => Promise<T>): Promise<T> => {
    const step = (index: number): Promise<T> => {
      const around = arounds[index];
      return around === undefined ? invoke() : around(call, () => step(index + 1));
    };
    return step(0);
  };
}

/** `port` with every method call going through `around`. */
export function wrapPort<Port extends object>(port: Port, around: PortAround, naming: PortNaming<Port> = {}): Port {
  return wrapAt(port, '', around, naming);
}

function wrapAt<Target extends object, Port>(target: Target, prefix: string, around: PortAround, naming: PortNaming<Port>): Target {
  const nested = new Set<string>(prefix === '' ? (naming.nested ?? []) : []);
  const passThrough = new Set<string>(naming.passThrough ?? []);
  const cache = new Map<string, { original: unknown; wrapped: unknown }>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof property !== 'string') return value;
      const path = `${prefix}${property}`;
      const cached = cache.get(property);
      if (cached !== undefined && cached.original === value) return cached.wrapped;
      let wrapped: unknown = value;
      if (typeof value === 'function' && !passThrough.has(path)) {
        const method = value as (...parameters: unknown[]) => unknown;
        const operation = operationNameOf(path, naming);
        wrapped = (...parameters: unknown[]) =>
          around({ operation, method: path, signal: signalOfCall(parameters), args: parameters }, () => Promise.resolve(method.apply(object, parameters)));
      } else if (nested.has(property) && value !== null && typeof value === 'object') {
        wrapped = wrapAt(value, `${path}.`, around, naming);
      } else {
        return value;
      }
      cache.set(property, { original: value, wrapped });
      return wrapped;
    },
  });
}
