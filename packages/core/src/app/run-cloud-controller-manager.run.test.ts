import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { request } from 'node:https';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TAINT_UNINITIALIZED } from '../api/well-known.js';
import { composeCloudPort } from '../cloud/compose-cloud-port.js';
import { LeadershipExpiredError } from '../cloud/leadership-fence.js';
import type { Controller, ControllerConstructor, ControllerContext } from '../controllers/controller.js';
import type { ControllerName } from '../names/controller-names.js';
import {
  CapturedOutput,
  FakeLeaderElector,
  TempDirectory,
  createTestRegistry,
  freePort,
  runnableInMemoryKube,
  waitFor,
  type TestCloud,
} from './test-support/command-harness.js';
import { defaultControllerConstructors } from './default-controllers.js';
import { runCloudControllerManager, type RunCloudControllerManagerOptions } from './run-cloud-controller-manager.js';

function httpsGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A controller that records its lifecycle and runs until aborted (or fails on demand). */
class RecordingController implements Controller {
  readonly name: ControllerName;
  runs = 0;
  stopped = 0;
  context: ControllerContext | undefined;
  #fail: ((error: Error) => void) | undefined;

  constructor(name: ControllerName) {
    this.name = name;
  }

  run(signal: AbortSignal): Promise<void> {
    this.runs += 1;
    return new Promise((resolve, reject) => {
      this.#fail = reject;
      signal.addEventListener(
        'abort',
        () => {
          this.stopped += 1;
          resolve();
        },
        { once: true },
      );
    });
  }

  fail(message: string): void {
    this.#fail?.(new Error(message));
  }
}

function recordingConstructors() {
  const controllers = new Map<ControllerName, RecordingController>();
  const make =
    (name: ControllerName): ControllerConstructor =>
    (context) => {
      const controller = new RecordingController(name);
      controller.context = context;
      controllers.set(name, controller);
      return controller;
    };
  return {
    controllers,
    constructors: {
      'cloud-node-controller': make('cloud-node-controller'),
      'cloud-node-lifecycle-controller': make('cloud-node-lifecycle-controller'),
      'service-lb-controller': make('service-lb-controller'),
      'node-route-controller': () => ({ skipped: 'the cloud provider does not support routes' }),
    } satisfies Partial<Record<ControllerName, ControllerConstructor>>,
  };
}

describe('runCloudControllerManager: running', () => {
  const directory = new TempDirectory();
  let kubeconfig: string;
  let stop: AbortController;
  let stderr: CapturedOutput;
  let kube: InMemoryKubeAccess;
  let lifecycle: { started: number; stopped: number };
  let electors: FakeLeaderElector[];
  let clouds: TestCloud[];
  let metrics: Registry;
  let servingPort: number | undefined;

  beforeEach(async () => {
    await directory.create();
    kubeconfig = await directory.kubeconfig();
    stop = new AbortController();
    stderr = new CapturedOutput();
    kube = new InMemoryKubeAccess();
    lifecycle = { started: 0, stopped: 0 };
    electors = [];
    clouds = [];
    metrics = new Registry();
    servingPort = undefined;
  });
  afterEach(async () => {
    stop.abort();
    await directory.remove();
  });

  function start(argv: string[], extra: Partial<RunCloudControllerManagerOptions> = {}): Promise<number> {
    return runCloudControllerManager({
      commandName: 'test-ccm',
      registry: createTestRegistry(clouds),
      argv: ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, ...argv],
      env: {},
      stdout: new CapturedOutput(),
      stderr,
      handleSignals: false,
      signal: stop.signal,
      metrics,
      shutdownTimeoutMs: 2_000,
      onServing: ({ port }) => (servingPort = port),
      dependencies: {
        createKubeAccess: () => runnableInMemoryKube(kube, lifecycle),
        createLeaderElector: (options) => {
          const elector = new FakeLeaderElector(options);
          electors.push(elector);
          return elector;
        },
      },
      ...extra,
    });
  }

  it('runs the enabled controllers without leader election, serves health and metrics, and stops cleanly', async () => {
    const { controllers, constructors } = recordingConstructors();
    const port = await freePort();
    const exit = start(
      [
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        '--controllers=*,-cloud-node-lifecycle',
        '--cluster-name=demo',
        // No authorization kubeconfig and not in a cluster: only these paths are served.
        '--authorization-always-allow-paths=/healthz,/metrics,/configz',
      ],
      { controllerConstructors: constructors },
    );
    await waitFor(() => (controllers.get('service-lb-controller')?.runs ?? 0) === 1, 'the service controller to run');

    expect([...controllers.keys()]).toEqual(['cloud-node-controller', 'service-lb-controller']);
    expect(clouds[0]?.initializeCalls).toHaveLength(1);
    expect(lifecycle.started).toBe(1);
    expect(controllers.get('cloud-node-controller')?.context?.config.clusterName).toBe('demo');
    expect(controllers.get('cloud-node-controller')?.context?.kube.nodes).toBe(kube.nodes);
    expect(stderr.text).toContain('"\\"cloud-node-lifecycle-controller\\" is disabled"');
    expect(stderr.text).toContain('"Skipping \\"node-route-controller\\": the cloud provider does not support routes"');
    expect(servingPort).toBe(port);

    const healthz = await httpsGet(port, '/healthz?verbose');
    expect(healthz).toEqual({ status: 200, body: '[+]cloud-node-controller ok\n[+]service-lb-controller ok\nhealthz check passed\n' });
    const metricsText = (await httpsGet(port, '/metrics')).body;
    expect(metricsText).toContain('running_managed_controllers{manager="cloud-controller-manager",name="cloud-node"} 1');
    expect(metricsText).toContain('running_managed_controllers{manager="cloud-controller-manager",name="service"} 1');
    expect(metricsText).toContain('cloud_controller_manager_build_info{version="0.1.0"');
    const configz = JSON.parse((await httpsGet(port, '/configz')).body) as Record<string, { Generic: { Controllers: string[] }; KubeCloudShared: { ClusterName: string } }>;
    expect(configz['cloudcontrollermanager.config.k8s.io']?.Generic.Controllers).toEqual(['*', '-cloud-node-lifecycle-controller']);
    expect(configz['cloudcontrollermanager.config.k8s.io']?.KubeCloudShared.ClusterName).toBe('demo');

    controllers.get('service-lb-controller')?.fail('informer exploded');
    await waitFor(async () => (await httpsGet(port, '/healthz')).status === 500, 'the health check to fail');
    expect((await httpsGet(port, '/healthz')).body).toBe('[+]cloud-node-controller ok\n[-]service-lb-controller failed: reason withheld\nhealthz check failed\n');

    stop.abort();
    expect(await exit).toBe(0);
    expect(controllers.get('cloud-node-controller')?.stopped).toBe(1);
    expect(lifecycle.stopped).toBe(1);
    expect(await metrics.metrics()).toContain('running_managed_controllers{manager="cloud-controller-manager",name="cloud-node"} 0');
    await expect(httpsGet(port, '/healthz')).rejects.toThrow();
    expect(stderr.text).toContain('"Received signal, shutting down" signal="abort"');
  });

  it('guards /metrics and /configz with delegated authorization: without an authorization kubeconfig they are forbidden', async () => {
    const { controllers, constructors } = recordingConstructors();
    const port = await freePort();
    const exit = start(['--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${port}`], { controllerConstructors: constructors });
    await waitFor(() => controllers.size === 3, 'controllers to start');
    expect((await httpsGet(port, '/healthz')).status).toBe(200);
    for (const path of ['/metrics', '/configz']) {
      expect(await httpsGet(port, path)).toEqual({
        status: 403,
        body: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"${path}\\"","reason":"Forbidden","details":{},"code":403}\n`,
      });
    }
    expect(stderr.text).toContain("No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won't work.");
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('starts controllers only after winning the lease, and releases it on shutdown', async () => {
    const { controllers, constructors } = recordingConstructors();
    const exit = start(['--secure-port=0', '--leader-elect-resource-name=my-ccm'], { controllerConstructors: constructors });
    await waitFor(() => controllers.size === 3 && electors.length === 1, 'controllers to start under the lease');
    stop.abort();
    expect(await exit).toBe(0);
    expect(electors[0]?.released).toBe(1);
    expect(controllers.get('cloud-node-controller')?.stopped).toBe(1);
  });

  it('exits 1 with "leaderelection lost" when the lease is lost', async () => {
    const { controllers, constructors } = recordingConstructors();
    const exit = start(['--secure-port=0'], { controllerConstructors: constructors });
    await waitFor(() => (controllers.get('cloud-node-controller')?.runs ?? 0) === 1, 'controllers to start');
    electors[0]?.lose();
    expect(await exit).toBe(1);
    expect(stderr.text).toContain('"leaderelection lost"');
    expect(electors[0]?.released).toBe(0);
    expect(controllers.get('cloud-node-controller')?.stopped).toBe(1);
  });

  it('fences cloud calls by the lease: past the renew deadline no call reaches the cloud until the lease is renewed', async () => {
    const { controllers, constructors } = recordingConstructors();
    const sent: number[] = [];
    const refused: number[] = [];
    const errors: unknown[] = [];
    const port = composeCloudPort({ updateLoadBalancer: async (index: number) => void sent.push(index) }, { name: 'test' });
    let calls = 0;
    // A controller that keeps writing to the cloud, as a service controller working through its queue.
    const writer: ControllerConstructor = () => ({
      name: 'service-lb-controller',
      run: async (signal) => {
        while (!signal.aborted) {
          const index = calls++;
          await port.updateLoadBalancer(index).catch((error: unknown) => {
            refused.push(index);
            errors.push(error);
          });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    });
    const exit = start(['--secure-port=0'], { controllerConstructors: { ...constructors, 'service-lb-controller': writer } });
    await waitFor(() => sent.length >= 3 && (controllers.get('cloud-node-controller')?.runs ?? 0) === 1, 'cloud calls while leading');
    const elector = electors[0] as FakeLeaderElector;
    elector.expire();
    const sentBefore = sent.length;
    await waitFor(() => refused.length >= 3, 'refused calls');
    expect(sent.length - sentBefore).toBeLessThanOrEqual(1);
    expect(errors[0]).toBeInstanceOf(LeadershipExpiredError);
    expect(errors[0]).toMatchObject({ kind: 'aborted', retryable: false, operation: 'test.updateLoadBalancer' });
    expect(stderr.text.match(/leader lease may have expired/g)).toHaveLength(1);
    // Renewed: calls go again; the refused ones never reached the cloud.
    elector.renew();
    const refusedCount = refused.length;
    await waitFor(() => sent.length >= sentBefore + 3, 'cloud calls after the renewal');
    expect(sent.filter((index) => refused.includes(index))).toEqual([]);
    expect(refused.length).toBeLessThanOrEqual(refusedCount + 1);
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('after losing the lease returns 1 within ~1 s even when a controller never stops (no drain wait)', async () => {
    const { controllers, constructors } = recordingConstructors();
    let stuckRuns = 0;
    const stuck: ControllerConstructor = () => ({
      name: 'service-lb-controller',
      run: () => {
        stuckRuns += 1;
        return new Promise<void>(() => {});
      },
    });
    // The forced exit (10 s after a normal stop) comes at once after a lost lease.
    const exitSpy = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      const exit = start(['--secure-port=0'], { controllerConstructors: { ...constructors, 'service-lb-controller': stuck }, shutdownTimeoutMs: 30_000, forceExitAfterMs: 10_000 });
      await waitFor(() => stuckRuns === 1 && (controllers.get('cloud-node-controller')?.runs ?? 0) === 1, 'controllers to start');
      const lostAt = Date.now();
      electors[0]?.lose();
      expect(await exit).toBe(1);
      expect(Date.now() - lostAt).toBeLessThan(2_000);
      expect(stderr.text).toContain('"leaderelection lost"');
      expect(stderr.text).toContain('"Stopped cloud-controller-manager"');
      expect(electors[0]?.released).toBe(0);
      await waitFor(() => exitSpy.mock.calls.length > 0, 'the forced exit', 1_000);
      expect(exitSpy).toHaveBeenCalledWith(1);
    } finally {
      exitSpy.mockRestore();
    }
  });

  it('reports the leader election health check', async () => {
    const { controllers, constructors } = recordingConstructors();
    const port = await freePort();
    const exit = start(['--bind-address=127.0.0.1', `--secure-port=${port}`], { controllerConstructors: constructors });
    await waitFor(() => controllers.size === 3, 'controllers to start');
    await waitFor(async () => (await httpsGet(port, '/readyz?verbose')).body.includes('[+]cloud-node-controller ok'), 'controller checks');
    expect((await httpsGet(port, '/livez?verbose')).body).toBe('[+]leaderElection ok\n[+]cloud-node-controller ok\n[+]cloud-node-lifecycle-controller ok\n[+]service-lb-controller ok\nlivez check passed\n');
    (electors[0] as FakeLeaderElector).failing = new Error('failed election to renew leadership on lease cloud-controller-manager');
    expect((await httpsGet(port, '/healthz')).status).toBe(500);
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('exits 1 when a controller constructor fails', async () => {
    const result = start(['--secure-port=0', '--leader-elect=false'], {
      controllerConstructors: {
        'cloud-node-controller': () => {
          throw new Error('bad configuration for nodes');
        },
      },
    });
    expect(await result).toBe(1);
    expect(stderr.text).toContain('error: error starting "cloud-node-controller": bad configuration for nodes\n');
    expect(lifecycle.stopped).toBe(1);
  });

  it('exits 1 when the cloud fails to initialize after winning the lease', async () => {
    const path = await directory.write('cloud.conf', '[Global]\nfail-initialize\n');
    const result = start(['--secure-port=0', `--cloud-config=${path}`], { controllerConstructors: recordingConstructors().constructors });
    expect(await result).toBe(1);
    expect(stderr.text).toContain('error: cloud provider "test" failed to initialize: credentials rejected\n');
    expect(electors[0]?.released).toBe(1);
  });

  it('waits the jittered --controller-start-interval between controllers', async () => {
    const { controllers, constructors } = recordingConstructors();
    const began = Date.now();
    const exit = start(['--secure-port=0', '--leader-elect=false', '--controller-start-interval=100ms'], { controllerConstructors: constructors });
    await waitFor(() => controllers.get('service-lb-controller')?.runs === 1, 'the second controller');
    const elapsed = Date.now() - began;
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(2_000);
    stop.abort();
    expect(await exit).toBe(0);
  });

  it('wires the default controllers: a new node gets initialized from the cloud', async () => {
    kube.addNode({
      metadata: { name: 'node-1' },
      spec: { taints: [{ key: TAINT_UNINITIALIZED, value: 'true', effect: 'NoSchedule' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    const exit = start(['--secure-port=0', '--leader-elect=false'], { controllerConstructors: defaultControllerConstructors });
    await waitFor(() => kube.nodeInformer.store.get('node-1')?.spec?.providerID === 'test://node-1', 'the node to be initialized');
    const node = kube.nodeInformer.store.get('node-1');
    expect(node?.spec?.taints ?? []).toEqual([]);
    expect(node?.metadata?.labels?.['topology.kubernetes.io/zone']).toBe('zone-a');
    stop.abort();
    expect(await exit).toBe(0);
  });
});
