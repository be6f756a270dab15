/**
 * A ControllerContext for running controllers end to end in tests: in-memory Kubernetes, a fake
 * cloud, a fresh metrics registry and TestWorkQueues (kept by name for inspection).
 */
import { Registry } from 'prom-client';
import type { KubeAccess } from '../../../kube/ports.js';
import type { WorkQueueOptions } from '../../../kube/work-queue.js';
import { silentLogger } from '../../../logging/logger.js';
import type { CloudProvider } from '../../../provider/cloud-provider.js';
import { DEFAULT_CONTROLLER_CONFIG, type ControllerConfig, type ControllerContext } from '../../controller.js';
import { TestWorkQueue } from './test-work-queue.js';

export interface TestControllerContext extends ControllerContext {
  metrics: Registry;
  queues: Map<string, TestWorkQueue>;
}

export function createTestControllerContext(cloud: CloudProvider, kube: KubeAccess, config: Partial<ControllerConfig> = {}): TestControllerContext {
  const queues = new Map<string, TestWorkQueue>();
  return {
    cloud,
    kube,
    config: { ...DEFAULT_CONTROLLER_CONFIG, ...config },
    metrics: new Registry(),
    logger: silentLogger,
    queues,
    createWorkQueue: <K extends string>(options: WorkQueueOptions) => {
      const queue = new TestWorkQueue<K>(options);
      queues.set(options.name, queue as unknown as TestWorkQueue);
      return queue;
    },
  };
}

/** Polls `condition` (each macrotask) until true; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 2_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
