// The sandbox image under the pod runner (see provider-image-suite.ts), plus two replicas: the
// sandbox cloud is reached through a proxy that attributes every request to the container that
// sent it, so that after the leader's container is killed the test can check the handover time
// and that no cloud write came from the old leader's pod afterwards.
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { expect, it } from 'vitest';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import { loadBalancerService, serviceReference } from '../conformance/scenario-helpers.js';
import type { RunningPod } from '../harness/pod-runner.js';
import { waitFor } from '../harness/wait-for.js';
import { ContainerCloudProxy } from './container-cloud-proxy.js';
import { describeProviderImage } from './provider-image-suite.js';

/** The overlay's leader election: upstream's defaults (lease 15 s, retry 2 s, client-go's jitter factor 1.2). */
const LEASE_DURATION_MS = 15_000;
const RETRY_PERIOD_MS = 2_000;
const JITTER_FACTOR = 1.2;
/**
 * The longest handover after the leader dies, as client-go's rules make it: the follower judges
 * expiry from the moment it saw the last renewal (its poll, up to a jittered retry period after
 * that renewal), plus the lease duration, plus one more jittered poll.
 */
const HANDOVER_BOUND_MS = LEASE_DURATION_MS + 2 * RETRY_PERIOD_MS * (1 + JITTER_FACTOR);

let proxy: ContainerCloudProxy | undefined;

/** A cloud write: anything but reads (`:batchGet` is a POST that reads). */
const isCloudWrite = (entry: { method: string; path: string }): boolean => entry.method !== 'GET' && entry.method !== 'HEAD' && !entry.path.includes(':batchGet');

await describeProviderImage({
  provider: 'sandbox',
  driver: sandboxDriver,
  buildImage: buildProviderImage,
  rewriteCloudConfig: async (text) => {
    const url = /^url\s*=\s*(\S+)/m.exec(text)?.[1];
    if (url === undefined) throw new Error(`the sandbox driver's cloud config has no url:\n${text}`);
    proxy = await ContainerCloudProxy.start(url);
    return text.replace(url, proxy.url);
  },
  brokenCloudConfig: '[Global]\nurl = not a url\ncluster-id = kubernetes\n',
  cleanup: async () => {
    await proxy?.close();
  },
  extraTests: (context) => {
    it('two replicas: killing the leader hands over within the lease duration, with no cloud write from the old leader after', async () => {
      const { client, pods, time } = context();
      const leader: RunningPod = pods[0]!;
      const leaseOf = async () => (await client.findLease('kube-system', 'cloud-controller-manager'))?.spec?.holderIdentity ?? '';
      const oldHolder = await leaseOf();
      expect(oldHolder, 'the first pod holds no lease').not.toBe('');
      const follower = await context().startPod();
      await follower.waitUntilReady(120_000);
      expect(await leaseOf()).toBe(oldHolder);

      // The leader is a process: its container. The runner restarts the killed container in the
      // same pod (restartPolicy Always), and that new process may win the lease as fairly as the
      // other pod's: what must never write again is the killed container.
      const killedContainer = leader.currentContainer?.id;
      expect(killedContainer, 'the leader pod has no running container').toBeDefined();
      const killedAt = Date.now();
      await leader.signal('KILL');
      const newHolder = await time('leader handover after SIGKILL', () =>
        waitFor(
          'another replica to take the lease',
          async (observe) => {
            const holder = await leaseOf();
            observe(holder);
            return holder !== '' && holder !== oldHolder ? holder : undefined;
          },
          HANDOVER_BOUND_MS + 10_000,
          { intervalMs: 100 },
        ),
      );
      const handoverMs = Date.now() - killedAt;
      console.info(`[image: sandbox] handover ${handoverMs} ms after SIGKILL of the leader (lease ${LEASE_DURATION_MS} ms, retry ${RETRY_PERIOD_MS} ms, bound ${HANDOVER_BOUND_MS} ms), new holder ${newHolder}`);
      // 250 ms for this test's own polling and the API round trip.
      expect(handoverMs).toBeLessThanOrEqual(HANDOVER_BOUND_MS + 250);

      // Work for the new leader: a load balancer for a new Service, then its deletion.
      const created = await client.createService(loadBalancerService('image-sandbox-handover'));
      const reference = serviceReference(created);
      await waitFor('the new leader to provision the load balancer', async () => (await context().driver.readLoadBalancer(reference)).exists, 60_000);
      await client.deleteService(reference.namespace, reference.name);
      await waitFor('the service to be gone', async () => (await client.findService(reference.namespace, reference.name)) === undefined, 60_000);

      const writesAfter = proxy!.recorded().filter((entry) => entry.at > killedAt && isCloudWrite(entry));
      const writers = [...new Set(writesAfter.map((entry) => entry.container))];
      expect(writesAfter.length, 'the new leader made no cloud write (is the proxy attributing requests?)').toBeGreaterThan(0);
      expect(writesAfter.filter((entry) => entry.container === killedContainer), 'cloud writes from the old leader after it was killed').toEqual([]);
      expect(writers, 'cloud writes from more than the one new leader').toHaveLength(1);
      const newLeaderPod = [leader, follower].find((pod) => writers[0]?.startsWith(`${pod.name}-`));
      expect(newLeaderPod, `the writer ${writers[0]} is a container of neither pod`).toBeDefined();
      console.info(`[image: sandbox] new leader: ${newLeaderPod === follower ? 'the other pod' : 'the killed pod\'s restarted container'} (${writers[0]})`);
      // The killed container was restarted by the runner (restartPolicy Always).
      await waitFor('the old leader pod to be restarted', () => leader.restartCount >= 1, 30_000);
      // The new leader's pod goes last: the SIGTERM test stops followers first.
      if (newLeaderPod !== undefined) {
        pods.splice(pods.indexOf(newLeaderPod), 1);
        pods.push(newLeaderPod);
      }
    }, 240_000);
  },
});
