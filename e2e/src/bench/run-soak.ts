/**
 * The soak: the sandbox CCM under steady churn with cloud faults for a long time, sampling its
 * memory and event-loop lag (through `soak-probe`, loaded into the CCM with `--import`).
 * Churn, every 2 s: one node joins (a new instance, registered like a kubelet does) and, once
 * the pool is full, the oldest node leaves (instance terminated, Node deleted); every 3 s one
 * Service is created, one updated (its port and an annotation flip) and, once the pool is full,
 * the oldest deleted. Faults: a seeded 500 error rate, a rate limit of 30 requests/s under a 40/s client budget (429 with Retry-After), 50 ms
 * latency, and a burst of 20 Throttling errors every minute.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { BenchEnvironment } from './bench-environment.js';
import { benchServiceName, createBenchInstances, loadBalancerService, uninitializedNode } from './bench-objects.js';
import { OUR_POLICY } from './ccm-policies.js';
import type { SoakArguments } from './soak-arguments.js';
import { judgeSoak, type MemorySample, type SoakVerdict } from './soak-statistics.js';

export const SOAK_PROBE_PATH = fileURLToPath(new URL('./soak-probe.js', import.meta.url));
const PROBE_INTERVAL_MS = 10_000;
const NODE_PERIOD_MS = 2_000;
const SERVICE_PERIOD_MS = 3_000;
const THROTTLING_BURST_PERIOD_MS = 60_000;

export interface SoakResult {
  samples: MemorySample[];
  verdict: SoakVerdict;
  churn: { nodesJoined: number; nodesLeft: number; servicesCreated: number; servicesUpdated: number; servicesDeleted: number };
  cloud: { calls: number; throttled: number; injectedErrors: number };
  minutes: number;
}

interface ProbeLine {
  elapsedMs: number;
  rssBytes: number;
  heapUsedBytes: number;
  eventLoopLagP99Ms: number;
  eventLoopLagMaxMs: number;
}

export async function runSoak(options: SoakArguments, progress: (line: string) => void): Promise<SoakResult> {
  const environment = await BenchEnvironment.start({ latencyMs: 50, rate: 30, apiQps: 40 });
  const timers: NodeJS.Timeout[] = [];
  try {
    const { emulator } = environment;
    const cloud = environment.cloud.sandbox;
    await cloud.setErrorRate(options.errorRate, options.seed);
    const probeFile = join(environment.directory, 'soak-probe.jsonl');
    process.env['SOAK_PROBE_FILE'] = probeFile;
    process.env['SOAK_PROBE_INTERVAL_MS'] = String(PROBE_INTERVAL_MS);
    process.env['BENCH_CCM_NODE_FLAGS'] = `${process.env['BENCH_CCM_NODE_FLAGS'] ?? ''} --import=${SOAK_PROBE_PATH}`.trim();
    const ccm = await environment.startCcm(OUR_POLICY, { nodeStatusUpdateFrequencySeconds: 30, timeoutMs: 120_000 });

    const churn = { nodesJoined: 0, nodesLeft: 0, servicesCreated: 0, servicesUpdated: 0, servicesDeleted: 0 };
    const nodes: { name: string; instanceId: string }[] = [];
    const services: string[] = [];
    let nextNode = 0;
    let nextService = 0;
    let failure: unknown;
    const guard = (step: () => void) => () => {
      try {
        step();
      } catch (error) {
        failure ??= error;
      }
    };
    timers.push(
      setInterval(
        guard(() => {
          const [instance] = createBenchInstances(cloud, 1, nextNode++);
          if (instance === undefined) return;
          const internalIp = instance.addresses.find((address) => address.type === 'InternalIP')?.address ?? '';
          emulator.create('nodes', uninitializedNode({ name: instance.name, hostname: instance.hostname, internalIp }));
          nodes.push({ name: instance.name, instanceId: instance.id });
          churn.nodesJoined++;
          if (nodes.length > options.nodes) {
            const leaving = nodes.shift()!;
            cloud.state.deleteInstance(leaving.instanceId, { purge: true });
            emulator.delete('nodes', leaving.name);
            churn.nodesLeft++;
          }
        }),
        NODE_PERIOD_MS,
      ),
      setInterval(
        guard(() => {
          const name = benchServiceName(nextService++);
          emulator.create('services', loadBalancerService(name));
          services.push(name);
          churn.servicesCreated++;
          const updated = services[Math.floor(services.length / 2)];
          if (updated !== undefined && updated !== name) {
            const port = nextService % 2 === 0 ? 80 : 81;
            emulator.patch(
              'services',
              updated,
              { metadata: { annotations: { 'soak.example.com/generation': String(nextService) } }, spec: { ports: [{ name: 'http', protocol: 'TCP', port, targetPort: 8080 }] } },
              'merge',
              { namespace: 'default' },
            );
            churn.servicesUpdated++;
          }
          if (services.length > options.services) {
            emulator.delete('services', services.shift()!, { namespace: 'default' });
            churn.servicesDeleted++;
          }
        }),
        SERVICE_PERIOD_MS,
      ),
      setInterval(() => void cloud.injectErrors({ code: 'Throttling', count: 20 }).catch((error: unknown) => (failure ??= error)), THROTTLING_BURST_PERIOD_MS),
    );

    const started = performance.now();
    const durationMs = options.minutes * 60_000;
    let reportedMinutes = 0;
    const samples = async (): Promise<MemorySample[]> => {
      const text = await readFile(probeFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as ProbeLine)
        .map((line) => ({ minute: line.elapsedMs / 60_000, rssBytes: line.rssBytes, heapUsedBytes: line.heapUsedBytes, eventLoopLagP99Ms: line.eventLoopLagP99Ms, eventLoopLagMaxMs: line.eventLoopLagMaxMs }));
    };
    while (performance.now() - started < durationMs) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      ccm.assertRunning();
      if (failure !== undefined) throw failure;
      const minute = Math.floor((performance.now() - started) / 60_000);
      if (minute > reportedMinutes) {
        reportedMinutes = minute;
        const all = await samples();
        const lastMinute = all.filter((sample) => sample.minute > all.at(-1)!.minute - 1);
        const last = all.at(-1);
        const calls = await environment.cloudCalls();
        if (last !== undefined) {
          progress(
            `minute ${String(minute).padStart(2)}: RSS ${(last.rssBytes / 1024 / 1024).toFixed(1)} MiB, heap ${(last.heapUsedBytes / 1024 / 1024).toFixed(1)} MiB, ` +
              `event-loop lag p99 ${Math.max(...lastMinute.map((sample) => sample.eventLoopLagP99Ms)).toFixed(1)} ms max ${Math.max(...lastMinute.map((sample) => sample.eventLoopLagMaxMs)).toFixed(1)} ms, ` +
              `nodes ${nodes.length}, services ${services.length}, cloud calls ${calls.calls} (throttled ${calls.throttled})`,
          );
        }
      }
    }
    for (const timer of timers) clearInterval(timer);
    ccm.assertRunning();
    const all = await samples();
    const counts = await cloud.calls();
    return {
      samples: all,
      verdict: judgeSoak(all, options.warmUpMinutes, options.maxSlopeBytesPerMinute),
      churn,
      cloud: { calls: counts.total.requests, throttled: counts.total.throttled, injectedErrors: counts.total.injectedErrors },
      minutes: options.minutes,
    };
  } finally {
    for (const timer of timers) clearInterval(timer);
    await environment.close();
  }
}
