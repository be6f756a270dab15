/**
 * The node storm's baseline: the API server's own pace for the CCM's writes. No CCM and no cloud
 * lookups: a plain client (`PlainKubeClient`) watches the Nodes as the CCM's informer does and
 * makes, for each new Node, exactly the writes the CCM makes to initialize it (the update, the
 * address patch, the `Synced` Event; `planNodeInitializationWrites`), with the CCM's limits:
 * `concurrentNodeSyncs` nodes in flight, the events written one at a time from a queue of 1,000
 * that drops when full (client-go's broadcaster, as the CCM's), and one token bucket of the
 * policy's kube QPS and burst for every request. The row is measured as the CCM's rows are.
 */
import { join } from 'node:path';
import { BenchEnvironment } from '../bench-environment.js';
import { percentile, type RowResult } from '../bench-results.js';
import type { CcmPolicy } from '../ccm-policies.js';
import { nodeSyncedEvent, planNodeInitializationWrites, type CloudNodeFacts, type KubeWrite, type RegisteredNode } from '../node-initialization-writes.js';
import { PlainKubeClient } from '../plain-kube-client.js';
import { benchInstanceOf } from '../sandbox-bench-cloud.js';
import { hasUninitializedTaint } from '../bench-objects.js';
import { waitFor } from '../../harness/wait-for.js';
import { measureNodeStorm, NODE_STORM, writesByResource, type NodeStormParameters } from './node-storm.js';

export const PLAIN_CLIENT_BASELINE_LABEL = 'plain-client baseline';

/** client-go's broadcaster queue (and the CCM's). */
const EVENT_QUEUE_LENGTH = 1_000;

export async function runPlainClientNodeStorm(policy: CcmPolicy, parameters: NodeStormParameters): Promise<Omit<RowResult, 'values' | 'extrapolated' | 'reportedSize'>> {
  if (parameters.provider !== 'sandbox') throw new Error(`the plain-client baseline runs on the sandbox cloud only, not ${parameters.provider}`);
  const environment = await BenchEnvironment.start({ latencyMs: parameters.latencyMs, rate: parameters.rate, apiQps: parameters.apiQps, kubeApi: parameters.kubeApi ?? 'emulator' });
  let client: PlainKubeClient | undefined;
  try {
    const instances = environment.cloud.createSandboxInstances(parameters.nodes);
    const facts = new Map<string, CloudNodeFacts>(
      instances.map((instance) => [
        instance.name,
        { providerId: `sandbox://${instance.id}`, instanceType: instance.instanceType, zone: instance.zone, region: instance.region, addresses: instance.addresses },
      ]),
    );
    const kubeconfigPath = join(environment.directory, 'kubeconfig-baseline');
    await environment.kube.writeCcmKubeconfig(kubeconfigPath);
    client = PlainKubeClient.fromKubeconfig(kubeconfigPath, { qps: policy.kubeApiQps, burst: policy.kubeApiBurst });
    const initializer = new PlainClientInitializer(client, facts, policy.concurrentNodeSyncs);
    await initializer.start();
    await environment.resetCounters();

    const { allInitializedSeconds, delays } = await measureNodeStorm(environment, instances.map(benchInstanceOf), parameters, {
      check: () => initializer.check(),
      describeContext: () => initializer.describe(),
      abortIf: () => initializer.failure(),
    });
    // The address patches and events follow the taint removal: count them too.
    await waitFor('the baseline to finish its writes', () => (initializer.check(), initializer.isIdle()), parameters.timeoutMs, { intervalMs: 20, describeContext: () => initializer.describe() });
    const kube = environment.kube.requestCounts();
    return {
      scenario: NODE_STORM,
      policy: 'baseline',
      label: PLAIN_CLIENT_BASELINE_LABEL,
      measuredSize: parameters.nodes,
      measured: {
        allInitializedSeconds,
        taintRemovalP50Seconds: percentile(delays, 50),
        taintRemovalP99Seconds: percentile(delays, 99),
        kubeWrites: kube.writes,
      },
      notes: [
        `no CCM: the CCM's writes per node from a plain client (${policy.concurrentNodeSyncs} nodes in flight, events one at a time, ${policy.kubeApiQps} QPS / burst ${policy.kubeApiBurst}); ${initializer.droppedEvents} events dropped (queue full)`,
        `kube writes by verb: ${JSON.stringify(writesByResource(kube.byResource))}`,
      ],
    };
  } finally {
    client?.close();
    await environment.close();
  }
}

/** The baseline's workers: nodes from the watch, initialized `concurrency` at a time; events one at a time. */
class PlainClientInitializer {
  readonly #client: PlainKubeClient;
  readonly #facts: ReadonlyMap<string, CloudNodeFacts>;
  readonly #concurrency: number;
  readonly #queued = new Set<string>();
  readonly #pending: RegisteredNode[] = [];
  readonly #events: KubeWrite[] = [];
  #inFlight = 0;
  #resourceVersion = '0';
  #writingEvents = false;
  #lastNanos = 0n;
  #error: unknown;
  droppedEvents = 0;
  #done = 0;

  constructor(client: PlainKubeClient, facts: ReadonlyMap<string, CloudNodeFacts>, concurrency: number) {
    this.#client = client;
    this.#facts = facts;
    this.#concurrency = concurrency;
  }

  /**
   * Lists the Nodes, then watches them from the list's version (the informer's start). A watch
   * the server ends is opened again from the last version seen; after a 410 the Nodes are
   * listed again (the informer's relist).
   */
  async start(): Promise<void> {
    await this.#list();
    await this.#watch();
  }

  async #list(): Promise<void> {
    const list = (await this.#client.get('/api/v1/nodes')) as { metadata?: { resourceVersion?: string }; items?: RegisteredNode[] };
    for (const node of list.items ?? []) this.#offer(node);
    this.#resourceVersion = list.metadata?.resourceVersion ?? '0';
  }

  async #watch(): Promise<void> {
    let gone = false;
    await this.#client.watch(
      '/api/v1/nodes',
      this.#resourceVersion,
      (event) => {
        if (event.type === 'ERROR') gone = (event.object as { code?: number }).code === 410;
        if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
        const node = event.object as RegisteredNode;
        this.#resourceVersion = (node.metadata.resourceVersion as string | undefined) ?? this.#resourceVersion;
        this.#offer(node);
      },
      () => {
        void (gone ? this.#list() : Promise.resolve())
          .then(() => this.#watch())
          .catch((error: unknown) => (this.#error ??= error));
      },
    );
  }

  check(): void {
    if (this.#error !== undefined) throw new Error(`the plain-client baseline failed: ${String(this.#error)}`, { cause: this.#error });
  }

  failure(): string | undefined {
    return this.#error === undefined ? undefined : `the plain-client baseline failed: ${String(this.#error)}`;
  }

  isIdle(): boolean {
    return this.#pending.length === 0 && this.#inFlight === 0 && this.#events.length === 0 && !this.#writingEvents;
  }

  describe(): string {
    return `plain-client baseline: ${this.#done} nodes initialized, ${this.#inFlight} in flight, ${this.#pending.length} waiting, ${this.#events.length} events queued, ${this.droppedEvents} dropped`;
  }

  #offer(node: RegisteredNode): void {
    const name = node.metadata.name;
    if (this.#queued.has(name) || !this.#facts.has(name) || !hasUninitializedTaint(node)) return;
    this.#queued.add(name);
    this.#pending.push(node);
    this.#pump();
  }

  #pump(): void {
    while (this.#inFlight < this.#concurrency && this.#pending.length > 0) {
      const node = this.#pending.shift()!;
      this.#inFlight += 1;
      void this.#initialize(node)
        .catch((error: unknown) => (this.#error ??= error))
        .finally(() => {
          this.#inFlight -= 1;
          this.#pump();
        });
    }
  }

  async #initialize(node: RegisteredNode): Promise<void> {
    const writes = planNodeInitializationWrites(node, this.#facts.get(node.metadata.name)!);
    await this.#client.write(writes.update);
    if (writes.statusPatch !== undefined) await this.#client.write(writes.statusPatch);
    this.#done += 1;
    this.#recordEvent(node);
  }

  #recordEvent(node: RegisteredNode): void {
    const now = new Date();
    let nanos = BigInt(now.getTime()) * 1_000_000n;
    if (nanos <= this.#lastNanos) nanos = this.#lastNanos + 1n;
    this.#lastNanos = nanos;
    if (this.#events.length >= EVENT_QUEUE_LENGTH) {
      this.droppedEvents += 1;
      return;
    }
    this.#events.push(nodeSyncedEvent(node, now, nanos));
    if (!this.#writingEvents) void this.#writeEvents();
  }

  async #writeEvents(): Promise<void> {
    this.#writingEvents = true;
    try {
      for (let event = this.#events.shift(); event !== undefined; event = this.#events.shift()) await this.#client.write(event);
    } catch (error) {
      this.#error ??= error;
    } finally {
      this.#writingEvents = false;
    }
  }
}
