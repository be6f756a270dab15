/** The bounded wait for the informer caches at startup (upstream `WaitForAPIServer`). */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import { KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTROLLER_CONFIG } from '../controllers/controller.js';
import type { SharedInformer } from '../kube/ports.js';
import { silentLogger } from '../logging/logger.js';
import { runnableInMemoryKube, TestCloud, TEST_CLOUD_CONFIG_SCHEMA } from './test-support/command-harness.js';
import { ControllerManagerMetrics } from './metrics/controller-manager-metrics.js';
import { FatalStartupError, INFORMER_SYNC_HEALTH_CHECK, runControllers, type RunControllersOptions, type RunnableKubeAccess } from './run-controllers.js';
import { HealthChecks } from './serving/health-checks.js';
import { RecordingLogger } from '../controllers/node/test-support/node-test-context.js';

/** The informer with its waitForSync replaced (the other members still reach the real one). */
function withSync<T extends object>(informer: SharedInformer<T>, waitForSync: () => Promise<void>): SharedInformer<T> {
  return new Proxy(informer, {
    get(target, property) {
      if (property === 'waitForSync') return waitForSync;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function setup(kube: RunnableKubeAccess, apiServerWaitTimeoutMs: number) {
  const healthChecks = new HealthChecks();
  const metrics = new Registry();
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://api.example:6443', skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const options: RunControllersOptions = {
    cloud: new TestCloud(TEST_CLOUD_CONFIG_SCHEMA.parse('', 'cloud.conf').config),
    clientBuilder: { kubeConfig: () => kubeConfig },
    createKubeAccess: () => kube,
    controllerConfig: { ...DEFAULT_CONTROLLER_CONFIG },
    controllerEntries: ['*'],
    disabledByDefault: new Set(),
    constructors: {},
    controllerStartIntervalMs: 0,
    metrics,
    controllerManagerMetrics: new ControllerManagerMetrics(metrics),
    healthChecks,
    logger: silentLogger,
    shutdownTimeoutMs: 100,
    apiServerWaitTimeoutMs,
  };
  return { options, healthChecks };
}

describe('runControllers: waiting for the API server', () => {
  it('fails with FatalStartupError naming the server and the last error when the caches do not sync in time', async () => {
    const inMemory = new InMemoryKubeAccess();
    const base = runnableInMemoryKube(inMemory);
    const never = () => new Promise<void>(() => {});
    const kube: RunnableKubeAccess = {
      ...base,
      nodeInformer: withSync(inMemory.nodeInformer, never),
      serviceInformer: withSync(inMemory.serviceInformer, never),
      syncProblem: () => 'list nodes: connect ECONNREFUSED 10.0.0.1:6443',
    };
    const { options, healthChecks } = setup(kube, 50);
    const stop = new AbortController();
    const running = runControllers(stop.signal, options);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(healthChecks.list('readyz').map((check) => check.name)).toEqual([INFORMER_SYNC_HEALTH_CHECK]);
    expect(healthChecks.list('healthz').map((check) => check.name)).toEqual(['ping']);
    await expect((async () => healthChecks.list('readyz')[0]?.check())()).rejects.toThrow('informer caches have not synced: list nodes: connect ECONNREFUSED');
    const error = await running.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(FatalStartupError);
    expect((error as Error).message).toBe('cannot reach the Kubernetes API server at https://api.example:6443: list nodes: connect ECONNREFUSED 10.0.0.1:6443');
    expect(healthChecks.list('readyz').map((check) => check.name)).toEqual(['ping']);
  });

  it('keeps waiting past the deadline while the server answers and the lists progress', async () => {
    const inMemory = new InMemoryKubeAccess();
    const base = runnableInMemoryKube(inMemory);
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const kube: RunnableKubeAccess = {
      ...base,
      nodeInformer: withSync(inMemory.nodeInformer, () => slow),
      serviceInformer: withSync(inMemory.serviceInformer, () => slow),
      syncProblem: () => undefined,
    };
    const { options, healthChecks } = setup(kube, 20);
    const stop = new AbortController();
    let failure: unknown;
    const running = runControllers(stop.signal, options).catch((error: unknown) => (failure = error));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(failure).toBeUndefined();
    expect(healthChecks.list('readyz').map((check) => check.name)).toEqual([INFORMER_SYNC_HEALTH_CHECK]);
    expect(healthChecks.list('healthz').map((check) => check.name)).toEqual(['ping']);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(healthChecks.list('readyz').map((check) => check.name)).toEqual(['ping']);
    stop.abort();
    await running;
    expect(failure).toBeUndefined();
  });
});

describe('runControllers: the informers shared with the provider', () => {
  it('hands the provider the Node informer and Secret informers before the informers start, and starts them after', async () => {
    const inMemory = new InMemoryKubeAccess();
    const lifecycle = { started: 0, stopped: 0 };
    const secretsAsked: string[] = [];
    const kube: RunnableKubeAccess = {
      ...runnableInMemoryKube(inMemory, lifecycle),
      secretInformer(namespace, name) {
        secretsAsked.push(`${namespace}/${name ?? '*'}`);
        return inMemory.serviceInformer as unknown as SharedInformer<V1Secret>;
      },
    };
    const { options } = setup(kube, 1_000);
    const seen: Array<{ startedBefore: number; sameNodeInformer: boolean }> = [];
    options.cloud = {
      providerName: 'test',
      hasClusterId: () => true,
      initialize(context) {
        seen.push({ startedBefore: lifecycle.started, sameNodeInformer: context.informers.nodes === inMemory.nodeInformer });
        context.informers.secrets('kube-system', 'vsphere-creds');
      },
    };
    const stop = new AbortController();
    const running = runControllers(stop.signal, options);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([{ startedBefore: 0, sameNodeInformer: true }]);
    expect(secretsAsked).toEqual(['kube-system/vsphere-creds']);
    expect(lifecycle.started).toBe(1);
    stop.abort();
    await running;
    expect(lifecycle.stopped).toBe(1);
  });

  it('stops the informers it created when the provider fails to initialize, and names a missing Secret informer', async () => {
    const lifecycle = { started: 0, stopped: 0 };
    const { options } = setup(runnableInMemoryKube(new InMemoryKubeAccess(), lifecycle), 1_000);
    options.cloud = {
      providerName: 'test',
      hasClusterId: () => true,
      initialize(context) {
        context.informers.secrets('kube-system');
      },
    };
    await expect(runControllers(new AbortController().signal, options)).rejects.toThrow(
      'cloud provider "test" failed to initialize: this Kubernetes access offers no Secret informers',
    );
    expect(lifecycle).toEqual({ started: 0, stopped: 1 });
  });
});

describe('runControllers: controllers a provider adds', () => {
  function providerSetup(entries: string[], disabledByDefault: ReadonlySet<string>) {
    const started: string[] = [];
    const { options } = setup(runnableInMemoryKube(new InMemoryKubeAccess(), { started: 0, stopped: 0 }), 1_000);
    const constructorOf = (name: string) => () => ({
      name,
      run: async (signal: AbortSignal) => {
        started.push(name);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    });
    options.constructors = { 'service-lb-controller': constructorOf('service-lb-controller'), tagging: constructorOf('tagging') };
    options.controllerEntries = entries;
    options.disabledByDefault = disabledByDefault;
    return { options, started };
  }

  it.each([
    { entries: ['*'], expected: ['service-lb-controller'] },
    { entries: ['*', 'tagging'], expected: ['service-lb-controller', 'tagging'] },
    { entries: ['tagging'], expected: ['tagging'] },
  ])('runs a disabled-by-default provider controller only when named: $entries', async ({ entries, expected }) => {
    const { options, started } = providerSetup(entries, new Set(['tagging']));
    const stop = new AbortController();
    const running = runControllers(stop.signal, options);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await running;
    expect(started).toEqual(expected);
  });
});

describe('runControllers: startControllers log lines (upstream app/controllermanager.go)', () => {
  it('logs a disabled controller as a warning `"<name>" is disabled`, and a started one as `Started "<name>"`', async () => {
    const logger = new RecordingLogger();
    const { options } = setup(runnableInMemoryKube(new InMemoryKubeAccess(), { started: 0, stopped: 0 }), 1_000);
    const idle = (name: string) => () => ({
      name,
      run: (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
    });
    options.constructors = { 'service-lb-controller': idle('service-lb-controller'), 'node-route-controller': idle('node-route-controller') };
    options.controllerEntries = ['*', '-node-route-controller'];
    options.logger = logger;
    const stop = new AbortController();
    const running = runControllers(stop.signal, options);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await running;
    expect(logger.messages('warn')).toContain('"node-route-controller" is disabled');
    expect(logger.messages('info')).toContain('Started "service-lb-controller"');
  });
});
