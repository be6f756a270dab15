/**
 * Instance lookups by ID and by private DNS name. Concurrent lookups are answered by one
 * DescribeInstances call (up to 1000 IDs or 200 names), like upstream's describeInstanceBatcher.
 */
import { isAwsErrorKind } from '../errors.js';
import type { CallOptions } from '../ports/call-options.js';
import { ec2Filter, type Ec2Instance, type Ec2Port } from '../ports/ec2-port.js';
import { KeyCoalescer, type Coalescer } from './key-coalescer.js';

/** States upstream accepts for a private-DNS-name lookup (everything but terminated). */
export const LIVE_INSTANCE_STATES = ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] as const;

export interface InstanceLookup {
  /** Undefined when EC2 does not know the ID (any state, terminated included, is returned). */
  byId(instanceId: string, options?: CallOptions): Promise<Ec2Instance | undefined>;
  /** Non-terminated instances whose private DNS name is `name` (not filtered by cluster tag). */
  byPrivateDnsName(name: string, options?: CallOptions): Promise<Ec2Instance[]>;
}

export interface BatchingInstanceLookupOptions {
  windowMs?: number;
  maxIds?: number;
  maxNames?: number;
}

export class BatchingInstanceLookup implements InstanceLookup {
  readonly #byId: Coalescer<string, Ec2Instance | undefined>;
  readonly #byName: Coalescer<string, Ec2Instance[]>;

  constructor(ec2: Ec2Port, options: BatchingInstanceLookupOptions = {}) {
    const windowMs = options.windowMs ?? 5;
    this.#byId = new KeyCoalescer<string, Ec2Instance | undefined>({
      windowMs,
      maxBatchSize: options.maxIds ?? 1000,
      fetchMany: async (ids) => {
        const instances = await ec2.describeInstances({ instanceIds: ids });
        return new Map(instances.map((instance) => [instance.instanceId, instance]));
      },
      fetchOne: async (id) => {
        try {
          const instances = await ec2.describeInstances({ instanceIds: [id] });
          return instances.find((instance) => instance.instanceId === id);
        } catch (error) {
          if (isAwsErrorKind(error, 'NotFound')) return undefined;
          throw error;
        }
      },
      missing: () => undefined,
    });
    const describeByNames = (names: string[]) =>
      ec2.describeInstances({
        filters: [ec2Filter('private-dns-name', ...names), ec2Filter('instance-state-name', ...LIVE_INSTANCE_STATES)],
      });
    this.#byName = new KeyCoalescer<string, Ec2Instance[]>({
      windowMs,
      maxBatchSize: options.maxNames ?? 200,
      fetchMany: async (names) => {
        const found = new Map<string, Ec2Instance[]>();
        for (const instance of await describeByNames(names)) {
          const name = instance.privateDnsName ?? '';
          found.set(name, [...(found.get(name) ?? []), instance]);
        }
        return found;
      },
      fetchOne: (name) => describeByNames([name]),
      missing: () => [],
    });
  }

  byId(instanceId: string, options?: CallOptions): Promise<Ec2Instance | undefined> {
    return this.#byId.load(instanceId, options?.signal);
  }

  byPrivateDnsName(name: string, options?: CallOptions): Promise<Ec2Instance[]> {
    return this.#byName.load(name, options?.signal);
  }
}
