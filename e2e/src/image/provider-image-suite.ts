/**
 * Every provider's image does its job: the image built by scripts/image (the daemonless OCI
 * build), its overlay applied server-side to the real kube-apiserver, the overlay's cloud config
 * pointed at the provider's simulator, and the Deployment's pod run by the pod runner (runc) as
 * a kubelet would. Checked: the pod becomes ready; it initializes a Node a kubelet registered
 * (taint removed, provider ID, addresses, labels); where the provider has load balancers it
 * provisions one for a Service and deletes it cleanly; on SIGTERM it exits 0 within
 * terminationGracePeriodSeconds and releases its lease; with a broken cloud config it exits 1
 * with one readable line and the runner reports the restart loop.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderDriver, DriverInstance } from '../conformance/provider-driver.js';
import { expectedNodeAddresses } from '../conformance/expectations.js';
import { loadBalancerService, serviceReference } from '../conformance/scenario-helpers.js';
import type { KubeLease, KubeNode, KubeService } from '../harness/kube-objects.js';
import { KubeTestClient } from '../harness/kube-test-client.js';
import { isInitialized, kubeletAddresses, registerNode } from '../harness/node-registration.js';
import { readOciImage, unpackRootfs, type OciImage } from '../harness/oci-image-rootfs.js';
import { applyOverlayServerSide, findDeployment, podNameFor, PodCrashLoopError, RunningPod } from '../harness/pod-runner.js';
import type { DeploymentObject } from '../harness/pod-spec.js';
import { realKubeApiServerUnavailableReason, RealKubeApiServer, KUBE_APISERVER_INSTALL_HINT } from '../harness/real-kube-api-server.js';
import { RUNC_INSTALL_HINT, runcUnavailableReason } from '../harness/runc-container.js';
import { waitFor } from '../harness/wait-for.js';

/** What scripts/image/build-image.mjs returns (the test files pass its function in). */
export interface BuiltProviderImage {
  provider: string;
  layoutDirectory: string;
  manifestDigest: string;
  compressedSize: number;
  imageReference: string;
}

/** What a provider's image test runs with, besides the scenario. */
export interface ProviderImageTestContext {
  client: KubeTestClient;
  server: RealKubeApiServer;
  driver: ProviderDriver;
  deployment: DeploymentObject;
  image: OciImage;
  /** Starts one more pod of the Deployment (closed after the file). */
  startPod(): Promise<RunningPod>;
  /** Timings of the phases, reported at the end. */
  time<T>(phase: string, action: () => Promise<T>): Promise<T>;
  /** The pods started so far. */
  pods: RunningPod[];
  /** A Node registered and initialized by the first test. */
  node: { instance: DriverInstance; name: string } | undefined;
}

export interface ProviderImageTest {
  /** The provider name of scripts/image and of manifests/<provider>. */
  provider: string;
  driver: ProviderDriver;
  buildImage: (options: { provider: string }) => Promise<BuiltProviderImage>;
  /** Objects the overlay names but leaves to the user (OpenStack's clouds.yaml Secret). */
  prepareCluster?: (client: KubeTestClient) => Promise<void>;
  /** Rewrites the cloud config text before it goes into the ConfigMap (e.g. through a proxy). */
  rewriteCloudConfig?: (text: string) => Promise<string> | string;
  /** A cloud config the provider refuses at start. */
  brokenCloudConfig: string;
  /** Extra tests run after the load balancer and before SIGTERM (the sandbox's two replicas). */
  extraTests?: (context: () => ProviderImageTestContext) => void;
  /** Called after everything (closes what extraTests started). */
  cleanup?: () => Promise<void>;
}

const LEASE = { namespace: 'kube-system', name: 'cloud-controller-manager' };
const READY_TIMEOUT_MS = 120_000;
const STEP_TIMEOUT_MS = 90_000;

async function missingPrerequisites(driver: ProviderDriver): Promise<{ reason: string; hint: string } | undefined> {
  const checks: Array<[string | undefined, string]> = [
    [await runcUnavailableReason(), RUNC_INSTALL_HINT],
    [await realKubeApiServerUnavailableReason(), KUBE_APISERVER_INSTALL_HINT],
    [await driver.unavailableReason(), driver.installHint ?? 'see e2e/README.md, section "Simulators and CI"'],
  ];
  const missing = checks.filter(([reason]) => reason !== undefined);
  if (missing.length === 0) return undefined;
  return { reason: missing.map(([reason]) => reason).join('; '), hint: missing.map(([, hint]) => hint).join('; ') };
}

/** The `--cloud-config=<path>` value of an argument list. */
function cloudConfigArgument(args: readonly string[]): string | undefined {
  return args.find((argument) => argument.startsWith('--cloud-config='))?.slice('--cloud-config='.length);
}

/** Absolute paths of existing host files named in a text (CA files, token files of the simulators). */
function referencedHostFiles(text: string, except: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\/[A-Za-z0-9._\-/]+/g)) {
    const path = match[0];
    if (path === except) continue;
    try {
      if (statSync(path).isFile()) found.add(path);
    } catch {
      // Not a file: a URL path or such.
    }
  }
  return [...found];
}

/**
 * Replaces the overlay's cloud config, in the API server, by the driver's (its host files go
 * into the same ConfigMap, their paths rewritten to the mount), and adds the driver's
 * environment to the container (as a user's overlay would).
 */
async function pointAtSimulator(test: ProviderImageTest, client: KubeTestClient, deployment: DeploymentObject): Promise<{ configMap: string; key: string; mountDirectory: string }> {
  const spec = test.driver.ccmProcess();
  const hostConfigPath = cloudConfigArgument(spec.args);
  if (hostConfigPath === undefined) throw new Error(`${test.driver.name} driver: its CCM command has no --cloud-config`);
  const unexpected = spec.args.slice(1).filter((argument) => !argument.startsWith('--cloud-config=') && !argument.startsWith('--cloud-provider='));
  if (unexpected.length > 0) throw new Error(`${test.driver.name} driver: its CCM command has flags the image test does not carry over: ${unexpected.join(' ')}`);
  const container = deployment.spec.template.spec.containers[0]!;
  const podConfigPath = cloudConfigArgument(container.args ?? []);
  if (podConfigPath === undefined) throw new Error(`manifests/${test.provider}: the container has no --cloud-config`);
  const mountDirectory = dirname(podConfigPath);
  const key = basename(podConfigPath);
  const mount = container.volumeMounts?.find((entry) => entry.mountPath === mountDirectory);
  const volume = deployment.spec.template.spec.volumes?.find((entry) => entry.name === mount?.name);
  if (volume?.configMap === undefined) throw new Error(`manifests/${test.provider}: ${mountDirectory} is not a ConfigMap volume`);

  let text = await readFile(hostConfigPath, 'utf8');
  const environment = Object.entries(spec.env ?? {});
  const data: Record<string, string> = {};
  for (const path of referencedHostFiles([text, ...environment.map(([, value]) => value)].join('\n'), hostConfigPath)) {
    const fileKey = basename(path);
    data[fileKey] = await readFile(path, 'utf8');
    const inPod = `${mountDirectory}/${fileKey}`;
    text = text.split(path).join(inPod);
    for (const entry of environment) entry[1] = entry[1].split(path).join(inPod);
  }
  data[key] = test.rewriteCloudConfig === undefined ? text : await test.rewriteCloudConfig(text);
  const namespace = deployment.metadata.namespace ?? 'kube-system';
  await client.request('PATCH', `/api/v1/namespaces/${namespace}/configmaps/${volume.configMap.name}`, { data }, 'application/merge-patch+json');
  if (environment.length > 0) {
    await client.request(
      'PATCH',
      `/apis/apps/v1/namespaces/${namespace}/deployments/${deployment.metadata.name}`,
      { spec: { template: { spec: { containers: [{ name: container.name, env: environment.map(([name, value]) => ({ name, value })) }] } } } },
      'application/strategic-merge-patch+json',
    );
  }
  return { configMap: volume.configMap.name, key, mountDirectory };
}

function expectNodeInitialized(node: KubeNode, instance: DriverInstance): void {
  expect(isInitialized(node)).toBe(true);
  expect(node.spec?.providerID).toBe(instance.expectedProviderId);
  const labels = node.metadata.labels ?? {};
  if (instance.expectedInstanceType !== undefined) expect(labels['node.kubernetes.io/instance-type']).toBe(instance.expectedInstanceType);
  if (instance.expectedZone !== undefined) expect(labels['topology.kubernetes.io/zone']).toBe(instance.expectedZone);
  if (instance.expectedRegion !== undefined) expect(labels['topology.kubernetes.io/region']).toBe(instance.expectedRegion);
}

/** Registers the image test of one provider (call at the top level of its test file). */
export async function describeProviderImage(test: ProviderImageTest): Promise<void> {
  const title = `image: ${test.provider} (built OCI image under runc, real kube-apiserver, ${test.driver.name} simulator)`;
  const missing = await missingPrerequisites(test.driver);
  if (missing !== undefined) {
    if (process.env['CI'] === 'true') {
      describe(title, () => {
        it('has runc, the real kube-apiserver and its simulator', () => {
          throw new Error(`the ${test.provider} image test cannot run under CI: ${missing.reason}. To install: ${missing.hint}`);
        });
      });
      return;
    }
    const bar = '!'.repeat(78);
    console.warn(`${bar}\nSKIPPING the ${test.provider} image test: ${missing.reason}\nTo run it: ${missing.hint}\n(Under CI=true this is a failure.)\n${bar}`);
    describe(title, () => {
      it.skip(`needs runc, the real kube-apiserver and its simulator: ${missing.reason}`, () => undefined);
    });
    return;
  }

  const timings: Array<[string, number]> = [];
  const time = async <T>(phase: string, action: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await action();
    } finally {
      timings.push([phase, Date.now() - started]);
    }
  };
  let server: RealKubeApiServer | undefined;
  let client: KubeTestClient;
  let deployment: DeploymentObject;
  let image: OciImage;
  let built: BuiltProviderImage;
  let cloudConfig: { configMap: string; key: string; mountDirectory: string };
  let driverStarted = false;
  const pods: RunningPod[] = [];
  let main: RunningPod | undefined;
  const context: ProviderImageTestContext = {
    get client() {
      return client;
    },
    get server() {
      return server!;
    },
    driver: test.driver,
    get deployment() {
      return deployment;
    },
    get image() {
      return image;
    },
    startPod,
    time,
    pods,
    node: undefined,
  };

  async function startPod(): Promise<RunningPod> {
    const pod = await RunningPod.start({
      api: server!,
      client,
      image,
      deployment: { namespace: deployment.metadata.namespace ?? 'kube-system', name: deployment.metadata.name },
      podName: podNameFor(deployment.metadata.name),
    });
    pods.push(pod);
    return pod;
  }

  describe(title, () => {
    beforeAll(async () => {
      // Settled, not all: when one start fails, afterAll still closes what the others started.
      const [image_, server_, driver_] = await Promise.allSettled([
        time('image build (cached)', () => test.buildImage({ provider: test.provider })),
        time('kube-apiserver start', () => RealKubeApiServer.start({ auditLog: false })),
        time('simulator start', async () => {
          // Stopped in afterAll even when the start fails half-way (drivers' stop() tolerates that).
          driverStarted = true;
          await test.driver.start();
        }),
      ]);
      if (server_.status === 'fulfilled') server = server_.value;
      for (const outcome of [image_, server_, driver_]) if (outcome.status === 'rejected') throw outcome.reason;
      built = (image_ as PromiseFulfilledResult<BuiltProviderImage>).value;
      if (server === undefined) throw new Error('unreachable: the kube-apiserver did not start');
      client = new KubeTestClient(server.adminUrl);
      console.info(`[image: ${test.provider}] ${built.imageReference} ${built.manifestDigest}, ${(built.compressedSize / 2 ** 20).toFixed(1)} MiB compressed`);
      const objects = await time('overlay applied server-side', () => applyOverlayServerSide(server!, test.provider));
      deployment = findDeployment(objects);
      await test.prepareCluster?.(client);
      cloudConfig = await pointAtSimulator(test, client, deployment);
      image = await readOciImage(built.layoutDirectory);
      await time('rootfs unpack (cached per digest)', () => unpackRootfs(image));
    }, 600_000);

    afterAll(async () => {
      await Promise.all(pods.map((pod) => pod.close()));
      await test.cleanup?.();
      if (driverStarted) await test.driver.stop();
      await server?.close();
      console.info(`[image: ${test.provider}] timings: ${timings.map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)}s`).join(', ')}`);
    }, 120_000);

    it('becomes ready under the pod runner (probes as the kubelet polls them)', async () => {
      main = await startPod();
      await time('pod ready', () => main!.waitUntilReady(READY_TIMEOUT_MS));
      const status = main.status();
      expect(status.restartCount).toBe(0);
      console.info(`[image: ${test.provider}] memory limit ${status.memoryLimit?.enforced ? 'enforced' : `NOT enforced (${status.memoryLimit?.reason})`}, seccomp ${status.seccomp ? 'RuntimeDefault (deny-list approximation)' : 'left out'}`);
    }, READY_TIMEOUT_MS + 30_000);

    it('initializes a Node registered by a kubelet: taint removed, provider ID, addresses, labels', async () => {
      expect(main?.ready, 'the pod is not ready').toBe(true);
      await time('node initialized', async () => {
        const instance = await test.driver.createInstance(`image-${test.provider}-node-1`);
        await registerNode(client, { name: instance.nodeName });
        context.node = { instance, name: instance.nodeName };
        const node = await waitFor(
          `node ${instance.nodeName} to be initialized by the ${test.provider} image`,
          async (observe) => {
            const current = await client.getNode(instance.nodeName);
            observe({ providerID: current.spec?.providerID, taints: current.spec?.taints ?? [] });
            return isInitialized(current) ? current : undefined;
          },
          STEP_TIMEOUT_MS,
          { abortIf: () => (main!.status().phase === 'CrashLoopBackOff' ? `the pod crashed: ${main!.status().lastLogLines}` : undefined), describeContext: () => `pod log:\n${main!.status().lastLogLines}` },
        );
        expectNodeInitialized(node, instance);
        // Addresses as the conformance suite expects them (the cloud's, plus the kubelet's Hostname when the cloud has none).
        const expected = expectedNodeAddresses(instance.expectedAddresses, kubeletAddresses({ name: instance.nodeName }));
        await waitFor(
          `node ${instance.nodeName} to publish addresses ${JSON.stringify(expected)}`,
          async (observe) => {
            const addresses = (await client.getNode(instance.nodeName)).status?.addresses ?? [];
            observe(addresses);
            return JSON.stringify(addresses) === JSON.stringify(expected);
          },
          STEP_TIMEOUT_MS,
        );
      });
    }, STEP_TIMEOUT_MS + 30_000);

    if (test.driver.capabilities.loadBalancer) {
      it('provisions a LoadBalancer Service and deletes it cleanly (finalizer gone, cloud resources gone)', async () => {
        expect(context.node, 'no initialized node').toBeDefined();
        await time('load balancer provisioned and deleted', async () => {
          const created: KubeService = await client.createService(loadBalancerService(`image-${test.provider}-lb`));
          const reference = serviceReference(created);
          await waitFor(
            `service ${reference.name} to get a load balancer ingress`,
            async (observe) => {
              const service = await client.getService(reference.namespace, reference.name);
              observe({ status: service.status, finalizers: service.metadata.finalizers });
              return (service.status?.loadBalancer?.ingress ?? []).length > 0;
            },
            STEP_TIMEOUT_MS,
            { describeContext: () => `pod log:\n${main!.status().lastLogLines}` },
          );
          const view = await test.driver.readLoadBalancer(reference);
          expect(view.exists).toBe(true);
          expect(view.backendNodeNames).toContain(context.node!.name);
          await client.deleteService(reference.namespace, reference.name);
          await waitFor(
            `service ${reference.name} to be gone (its finalizer removed)`,
            async (observe) => {
              const service = await client.findService(reference.namespace, reference.name);
              observe(service?.metadata.finalizers);
              return service === undefined;
            },
            STEP_TIMEOUT_MS,
            { describeContext: () => `pod log:\n${main!.status().lastLogLines}` },
          );
          expect((await test.driver.readLoadBalancer(reference)).exists).toBe(false);
          expect(await test.driver.leakedResources()).toEqual([]);
        });
      }, STEP_TIMEOUT_MS * 2 + 30_000);
    } else {
      console.info(`[image: ${test.provider}] no load balancer test: the ${test.driver.name} provider has no load balancers`);
    }

    test.extraTests?.(() => context);

    it('on SIGTERM exits 0 within terminationGracePeriodSeconds and releases its lease', async () => {
      expect(main?.ready, `the pod never became ready: ${main === undefined ? 'not started' : JSON.stringify(main.status())}`).toBe(true);
      const running = pods.filter((pod) => pod.status().phase !== 'Terminated');
      expect(running.length).toBeGreaterThan(0);
      const holder = await waitFor(
        'the lease to be held',
        async () => {
          const lease: KubeLease | undefined = await client.findLease(LEASE.namespace, LEASE.name);
          return lease?.spec?.holderIdentity || undefined;
        },
        STEP_TIMEOUT_MS,
      );
      expect(holder).toBeTruthy();
      // Followers first, so that the last one to stop is the leader and nobody takes the lease after it.
      const leader = running.at(-1)!;
      for (const pod of running) {
        const stopped = await time(pod === leader ? 'SIGTERM (leader)' : 'SIGTERM (follower)', () => pod.terminate());
        expect(stopped.exitCode, `${pod.name} exit code; its log:\n${pod.status().lastLogLines}`).toBe(0);
        expect(stopped.killedAfterGrace).toBe(false);
        expect(stopped.elapsedMs).toBeLessThan(stopped.gracePeriodMs);
      }
      const lease = await client.findLease(LEASE.namespace, LEASE.name);
      expect(lease?.spec?.holderIdentity ?? '', 'the lease still names a holder after the leader exited').toBe('');
    }, STEP_TIMEOUT_MS * 2);

    it('with a broken cloud config exits 1 with one readable error line, and the runner reports the restart loop', async () => {
      const namespace = deployment.metadata.namespace ?? 'kube-system';
      await client.request('PATCH', `/api/v1/namespaces/${namespace}/configmaps/${cloudConfig.configMap}`, { data: { [cloudConfig.key]: test.brokenCloudConfig } }, 'application/merge-patch+json');
      const pod = await startPod();
      const failure = await time('broken config: crash loop reported', () =>
        pod.waitUntilReady(READY_TIMEOUT_MS).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
      expect(failure, 'the pod became ready with a broken cloud config').toBeInstanceOf(Error);
      const report = pod.status();
      expect(report.phase).toBe('CrashLoopBackOff');
      expect(report.lastExitCode).toBe(1);
      expect((failure as Error).message).toMatch(/CrashLoopBackOff: restarted 1 time\(s\), last exit code 1/);
      // The CCM's start-up lines (klog I/W) may come first; the failure itself is one error line naming the file.
      const first = pod.containers()[0]!;
      const lines = first.logTail.split('\n').filter((line) => line.trim() !== '');
      const errors = lines.filter((line) => !/^[IW]\d{4} /.test(line));
      expect(errors, `the log of a container with a broken cloud config:\n${first.logTail}`).toHaveLength(1);
      expect(errors[0]).toContain(`${cloudConfig.mountDirectory}/${cloudConfig.key}`);
      expect(errors[0]!.length).toBeLessThan(400);
      console.info(`[image: ${test.provider}] broken cloud config: exit ${first.exitCode}, "${errors[0]}"`);
      expect(PodCrashLoopError.name).toBe('PodCrashLoopError');
      await pod.close();
    }, READY_TIMEOUT_MS + 30_000);
  });
}
