/**
 * Test wiring for the node controllers: a ControllerContext over InMemoryKubeAccess and a fake
 * cloud, a recording logger, work queues that record rate-limited requeues, and a Node builder.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node, V1NodeAddress, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { TAINT_UNINITIALIZED } from '../../../api/well-known.js';
import { createWorkQueue } from '../../../kube/rate-limited-work-queue.js';
import type { WorkQueue, WorkQueueOptions } from '../../../kube/work-queue.js';
import type { LogFields, Logger } from '../../../logging/logger.js';
import type { CloudProvider } from '../../../provider/cloud-provider.js';
import { DEFAULT_CONTROLLER_CONFIG, type ControllerConfig, type ControllerContext } from '../../controller.js';

export const UNINITIALIZED_TAINT: V1Taint = { key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' };

export interface LogEntry {
  level: 'error' | 'warn' | 'info' | 'verbose';
  message: string;
  fields?: LogFields;
}

export class RecordingLogger implements Logger {
  readonly entries: LogEntry[];
  readonly #fields: LogFields;
  constructor(entries: LogEntry[] = [], fields: LogFields = {}) {
    this.entries = entries;
    this.#fields = fields;
  }
  #push(level: LogEntry['level'], message: string, fields?: LogFields) {
    this.entries.push({ level, message, fields: { ...this.#fields, ...fields } });
  }
  error(message: string, fields?: LogFields) {
    this.#push('error', message, fields);
  }
  warn(message: string, fields?: LogFields) {
    this.#push('warn', message, fields);
  }
  info(message: string, fields?: LogFields) {
    this.#push('info', message, fields);
  }
  verbose(_level: number, message: string, fields?: LogFields) {
    this.#push('verbose', message, fields);
  }
  child(fields: LogFields): Logger {
    return new RecordingLogger(this.entries, { ...this.#fields, ...fields });
  }
  messages(level?: LogEntry['level']): string[] {
    return this.entries.filter((entry) => level === undefined || entry.level === level).map((entry) => entry.message);
  }
}

/** A work queue that records the calls the controller makes, delegating to the real queue. */
export class RecordingWorkQueue<K extends string> implements WorkQueue<K> {
  readonly name: string;
  readonly added: K[] = [];
  readonly rateLimited: K[] = [];
  readonly forgotten: K[] = [];
  readonly #inner: WorkQueue<K>;
  constructor(name: string, inner: WorkQueue<K>) {
    this.name = name;
    this.#inner = inner;
  }
  add(key: K) {
    this.added.push(key);
    this.#inner.add(key);
  }
  addAfter(key: K, delayMs: number) {
    this.#inner.addAfter(key, delayMs);
  }
  addRateLimited(key: K) {
    this.rateLimited.push(key);
    this.#inner.addRateLimited(key);
  }
  forget(key: K) {
    this.forgotten.push(key);
    this.#inner.forget(key);
  }
  numRequeues(key: K) {
    return this.#inner.numRequeues(key);
  }
  get() {
    return this.#inner.get();
  }
  done(key: K) {
    this.#inner.done(key);
  }
  shutDown() {
    this.#inner.shutDown();
  }
  length() {
    return this.#inner.length();
  }
}

export interface NodeTestContext {
  context: ControllerContext;
  kube: InMemoryKubeAccess;
  logger: RecordingLogger;
  metrics: Registry;
  queues: Array<RecordingWorkQueue<string>>;
}

export function createNodeTestContext(options: { cloud: CloudProvider; kube?: InMemoryKubeAccess; config?: Partial<ControllerConfig> }): NodeTestContext {
  const kube = options.kube ?? new InMemoryKubeAccess();
  const metrics = new Registry();
  const logger = new RecordingLogger();
  const queues: Array<RecordingWorkQueue<string>> = [];
  const context: ControllerContext = {
    cloud: options.cloud,
    kube,
    config: { ...DEFAULT_CONTROLLER_CONFIG, ...options.config },
    metrics,
    logger,
    createWorkQueue: <K extends string>(queueOptions: WorkQueueOptions): WorkQueue<K> => {
      const queue = new RecordingWorkQueue<K>(queueOptions.name, createWorkQueue<K>(queueOptions, metrics));
      queues.push(queue as unknown as RecordingWorkQueue<string>);
      return queue;
    },
  };
  return { context, kube, logger, metrics, queues };
}

export interface NodeSpecification {
  taints?: V1Taint[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  providerId?: string;
  addresses?: V1NodeAddress[];
  /** Ready condition status; omitted = no Ready condition. */
  ready?: 'True' | 'False' | 'Unknown';
  creationTimestamp?: Date;
}

export function makeNode(name: string, specification: NodeSpecification = {}): V1Node {
  const conditions: V1NodeCondition[] | undefined =
    specification.ready === undefined
      ? undefined
      : [
          {
            type: 'Ready',
            status: specification.ready,
            lastHeartbeatTime: new Date('2015-01-01T12:00:00Z'),
            lastTransitionTime: new Date('2015-01-01T12:00:00Z'),
          },
        ];
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      ...(specification.creationTimestamp === undefined ? {} : { creationTimestamp: specification.creationTimestamp }),
      ...(specification.labels === undefined ? {} : { labels: { ...specification.labels } }),
      ...(specification.annotations === undefined ? {} : { annotations: { ...specification.annotations } }),
    },
    spec: {
      ...(specification.providerId === undefined ? {} : { providerID: specification.providerId }),
      ...(specification.taints === undefined ? {} : { taints: structuredClone(specification.taints) }),
    },
    status: {
      ...(specification.addresses === undefined ? {} : { addresses: structuredClone(specification.addresses) }),
      ...(conditions === undefined ? {} : { conditions }),
    },
  };
  return node;
}
