/**
 * Instance lookups by ID and by private DNS name through core's `Coalescer`: concurrent lookups
 * (one per node, from every controller) are answered by one DescribeInstances call, like
 * upstream's describeInstanceBatcher. When a batch call fails, each key is asked alone, so one
 * unknown ID (which fails the whole call on AWS) cannot fail its neighbours — unless AWS
 * throttled the batch: splitting a throttled call into many would only make it worse.
 */
import { type CallOptions, Coalescer, type CoalescerObserver, notThrottled } from '@ccm/core/cloud';
import { AwsApiError } from '../errors.js';
import { ec2Filter, type Ec2Instance, type Ec2Port } from '../ports/ec2-port.js';

/** States upstream accepts for a private-DNS-name lookup (everything but terminated). */
export const LIVE_INSTANCE_STATES = ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] as const;

/** Most instance IDs per DescribeInstances call (upstream batches far fewer; AWS accepts 1000). */
export const MAX_INSTANCE_IDS_PER_CALL = 1000;
/** Most values of one DescribeInstances filter (an EC2 API limit). */
export const MAX_FILTER_VALUES_PER_CALL = 200;

/**
 * How long lookups wait for company, and how many DescribeInstances calls of one kind may be out
 * at once: a 20 ms window and one call in flight, so lookups that arrive while a call is out wait
 * and go together in the next one (up to the 1000-ID or 200-name limit). A storm of 1,000 new
 * nodes costs about 11 calls (`pnpm bench node-storm --provider aws`) instead of ~28 with core's
 * defaults (5 ms, 4 in flight); a lone lookup waits at most 20 ms longer.
 */
export const INSTANCE_LOOKUP_COALESCING = { windowMs: 20, maxConcurrentBatches: 1 } as const;

export interface InstanceLookup {
  /** Undefined when EC2 does not know the ID (any state, terminated included, is returned). */
  byId(instanceId: string, options?: CallOptions): Promise<Ec2Instance | undefined>;
  /** Non-terminated instances whose private DNS name is `name` (not filtered by cluster tag). */
  byPrivateDnsName(name: string, options?: CallOptions): Promise<Ec2Instance[]>;
}

export interface CoalescedInstanceLookupOptions {
  /** Metrics of the by-ID and by-name coalescers (`createCoalescerMetrics`). */
  observers?: { byId?: CoalescerObserver; byPrivateDnsName?: CoalescerObserver };
}

export class CoalescedInstanceLookup implements InstanceLookup {
  readonly #byId: Coalescer<string, Ec2Instance | undefined>;
  readonly #byName: Coalescer<string, Ec2Instance[]>;

  constructor(ec2: Ec2Port, options: CoalescedInstanceLookupOptions = {}) {
    this.#byId = new Coalescer<string, Ec2Instance | undefined>({
      name: 'DescribeInstances',
      ...INSTANCE_LOOKUP_COALESCING,
      maxBatchSize: MAX_INSTANCE_IDS_PER_CALL,
      batchLoad: async (ids, { signal }) => {
        try {
          const instances = await ec2.describeInstances({ instanceIds: ids }, { signal });
          return new Map(instances.map((instance) => [instance.instanceId, instance]));
        } catch (error) {
          // A batch of one that is "not found" is already the single answer: no second call.
          if (ids.length === 1 && AwsApiError.hasKind(error, 'NotFound')) return new Map();
          throw error;
        }
      },
      singleLoad: async (id, { signal }) => {
        try {
          const instances = await ec2.describeInstances({ instanceIds: [id] }, { signal });
          return instances.find((instance) => instance.instanceId === id);
        } catch (error) {
          if (AwsApiError.hasKind(error, 'NotFound')) return undefined;
          throw error;
        }
      },
      shouldFallBack: notThrottled,
      resolveMissing: () => undefined,
      ...(options.observers?.byId === undefined ? {} : { observer: options.observers.byId }),
    });
    const describeByNames = (names: readonly string[], signal: AbortSignal) =>
      ec2.describeInstances({ filters: [ec2Filter('private-dns-name', ...names), ec2Filter('instance-state-name', ...LIVE_INSTANCE_STATES)] }, { signal });
    this.#byName = new Coalescer<string, Ec2Instance[]>({
      name: 'DescribeInstancesByPrivateDnsName',
      ...INSTANCE_LOOKUP_COALESCING,
      maxBatchSize: MAX_FILTER_VALUES_PER_CALL,
      batchLoad: async (names, { signal }) => {
        const found = new Map<string, Ec2Instance[]>();
        for (const instance of await describeByNames(names, signal)) {
          const name = instance.privateDnsName ?? '';
          found.set(name, [...(found.get(name) ?? []), instance]);
        }
        return found;
      },
      singleLoad: (name, { signal }) => describeByNames([name], signal),
      shouldFallBack: notThrottled,
      resolveMissing: () => [],
      ...(options.observers?.byPrivateDnsName === undefined ? {} : { observer: options.observers.byPrivateDnsName }),
    });
  }

  byId(instanceId: string, options?: CallOptions): Promise<Ec2Instance | undefined> {
    return this.#byId.load(instanceId, options);
  }

  byPrivateDnsName(name: string, options?: CallOptions): Promise<Ec2Instance[]> {
    return this.#byName.load(name, options);
  }
}
