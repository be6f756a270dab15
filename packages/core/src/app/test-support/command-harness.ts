/**
 * Test support for running the command in-process: a test provider (gcfg cloud config,
 * in-memory InstancesV2 and optional Routes), captured stdout/stderr, a temp kubeconfig, the
 * in-memory KubeAccess and a controllable leader elector.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Node } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { defineGcfgSchema } from '../../config/gcfg/gcfg-schema.js';
import type { CloudInitializeContext, CloudProvider } from '../../provider/cloud-provider.js';
import type { InstanceMetadata, InstancesV2 } from '../../provider/instances.js';
import { CloudProviderRegistry } from '../../provider/provider-registry.js';
import type { Routes } from '../../provider/routes.js';
import { runCloudControllerManager, type RunCloudControllerManagerOptions } from '../run-cloud-controller-manager.js';
import type { RunnableKubeAccess } from '../run-controllers.js';
import type { LeaderElection, LeaderElectionCallbacks } from '../run-modes.js';

export const TEST_CLOUD_CONFIG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'Global',
    keys: {
      zone: { type: 'string', name: 'zone', description: 'Zone.', default: 'zone-a' },
      clusterId: { type: 'string', name: 'cluster-id', description: 'Cluster ID.', default: 'c1' },
      routes: { type: 'bool', name: 'routes', description: 'Support routes.' },
      failInitialize: { type: 'bool', name: 'fail-initialize', description: 'Make initialize throw.' },
    },
  },
});

export class TestCloud implements CloudProvider {
  readonly providerName = 'test';
  readonly initializeCalls: CloudInitializeContext[] = [];
  readonly #config: ReturnType<typeof TEST_CLOUD_CONFIG_SCHEMA.parse>['config'];

  constructor(config: ReturnType<typeof TEST_CLOUD_CONFIG_SCHEMA.parse>['config']) {
    this.#config = config;
  }

  initialize(context: CloudInitializeContext): void {
    this.initializeCalls.push(context);
    if (this.#config.global.failInitialize) throw new Error('credentials rejected');
  }

  instancesV2(): InstancesV2 {
    const zone = this.#config.global.zone;
    return {
      instanceExists: async () => true,
      instanceShutdown: async () => false,
      instanceMetadata: async (node: V1Node): Promise<InstanceMetadata> => ({
        providerId: `test://${node.metadata?.name ?? ''}`,
        instanceType: 'small',
        nodeAddresses: [{ type: 'InternalIP', address: '10.0.0.10' }],
        zone,
        region: 'region-1',
      }),
    };
  }

  routes(): Routes | undefined {
    if (!this.#config.global.routes) return undefined;
    return {
      listRoutes: async () => [],
      createRoute: async () => undefined,
      deleteRoute: async () => undefined,
    };
  }

  loadBalancer(): undefined {
    return undefined;
  }
  instances(): undefined {
    return undefined;
  }
  zones(): undefined {
    return undefined;
  }
  clusters(): undefined {
    return undefined;
  }
  hasClusterId(): boolean {
    return this.#config.global.clusterId !== '';
  }
}

export function createTestRegistry(created: TestCloud[] = []): CloudProviderRegistry {
  const registry = new CloudProviderRegistry();
  registry.register('test', (configText, context) => {
    const { config } = TEST_CLOUD_CONFIG_SCHEMA.parse(configText ?? '', context.configPath ?? '<no cloud config>');
    const cloud = new TestCloud(config);
    created.push(cloud);
    return cloud;
  });
  return registry;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class CapturedOutput {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export async function runCommand(argv: string[], extra: Partial<RunCloudControllerManagerOptions> = {}): Promise<CommandResult> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await runCloudControllerManager({
    commandName: 'test-ccm',
    registry: createTestRegistry(),
    argv,
    env: {},
    stdout,
    stderr,
    handleSignals: false,
    metrics: new Registry(),
    ...extra,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export class TempDirectory {
  path = '';
  async create(): Promise<void> {
    this.path = await mkdtemp(join(tmpdir(), 'ccm-command-'));
  }
  async remove(): Promise<void> {
    if (this.path !== '') await rm(this.path, { recursive: true, force: true });
  }
  async write(name: string, text: string): Promise<string> {
    const path = join(this.path, name);
    await writeFile(path, text);
    return path;
  }
  /** A syntactically valid kubeconfig; nothing contacts its server (the tests inject the Kubernetes pieces). */
  kubeconfig(): Promise<string> {
    return this.write(
      'kubeconfig',
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: test',
        '  cluster:',
        '    server: https://127.0.0.1:6443',
        '    insecure-skip-tls-verify: true',
        'users:',
        '- name: test',
        '  user:',
        '    token: not-a-real-token',
        'contexts:',
        '- name: test',
        '  context:',
        '    cluster: test',
        '    user: test',
        'current-context: test',
        '',
      ].join('\n'),
    );
  }
}

/** The in-memory KubeAccess with the lifecycle the runtime drives. */
export function runnableInMemoryKube(kube: InMemoryKubeAccess, lifecycle: { started: number; stopped: number } = { started: 0, stopped: 0 }): RunnableKubeAccess {
  return {
    nodes: kube.nodes,
    services: kube.services,
    nodeInformer: kube.nodeInformer,
    serviceInformer: kube.serviceInformer,
    eventRecorder: (component) => kube.eventRecorder(component),
    start() {
      lifecycle.started += 1;
    },
    stop() {
      lifecycle.stopped += 1;
    },
  };
}

/** Leads at once; `lose()` simulates a failed renewal. */
export class FakeLeaderElector implements LeaderElection {
  released = 0;
  failing: Error | undefined;
  readonly #callbacks: LeaderElectionCallbacks;
  #lose: (() => void) | undefined;

  constructor(callbacks: LeaderElectionCallbacks) {
    this.#callbacks = callbacks;
  }

  async run(signal: AbortSignal): Promise<void> {
    const leadership = new AbortController();
    await this.#callbacks.onStartedLeading(leadership.signal);
    await new Promise<void>((resolve) => {
      this.#lose = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    leadership.abort();
    this.#callbacks.onStoppedLeading(signal.aborted ? 'cancelled' : 'lost');
  }

  lose(): void {
    this.#lose?.();
  }

  async release(): Promise<void> {
    this.released += 1;
  }

  check(): Error | undefined {
    return this.failing;
  }

  /** Leads with a fresh lease until `expire()`: the fence of the controllers' cloud calls. */
  validUntil = Number.POSITIVE_INFINITY;

  leadershipValidUntil(): number {
    return this.validUntil;
  }

  /** The renew deadline passes without a renewal (a stalled leader): cloud calls are refused until `renew()`. */
  expire(): void {
    this.validUntil = Date.now() - 1;
  }

  renew(): void {
    this.validUntil = Number.POSITIVE_INFINITY;
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
