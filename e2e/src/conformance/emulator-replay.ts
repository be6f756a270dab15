import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmulatorBackend } from '../harness/kube-api-backend.js';
import type { RecordedKubeRequest } from '../harness/kube-api-proxy.js';
import { replayRequests } from '../harness/kube-request-replay.js';

/**
 * Requests outside what the emulator serves, on purpose: the secure port's delegated
 * authentication and authorization (TokenReviews, SubjectAccessReviews, the
 * `extension-apiserver-authentication` ConfigMap the kube-apiserver publishes) and the
 * ServiceAccount, token and RBAC objects the serving scenario creates for its Prometheus scrape.
 * The demo and the benchmark never send them; on the emulator the serving scenario scrapes
 * anonymously instead, and `e2e/src/serving/` tests them against the real server.
 */
const NOT_EMULATED: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/apis\/authentication\.k8s\.io\/v1\/tokenreviews(\?|$)/ },
  { method: 'POST', path: /^\/apis\/authorization\.k8s\.io\/v1\/subjectaccessreviews(\?|$)/ },
  { method: 'GET', path: /^\/api\/v1\/namespaces\/kube-system\/configmaps(\/extension-apiserver-authentication(\?|$)|\?.*fieldSelector=metadata\.name%3Dextension-apiserver-authentication)/ },
  { method: 'POST', path: /^\/api\/v1\/namespaces\/[^/]+\/serviceaccounts(\/[^/]+\/token)?(\?|$)/ },
  { method: 'POST', path: /^\/apis\/rbac\.authorization\.k8s\.io\/v1\/(clusterroles|clusterrolebindings)(\?|$)/ },
];

/** Whether the emulator is expected to answer this request like the real server (see NOT_EMULATED). */
export function isEmulated(request: Pick<RecordedKubeRequest, 'method' | 'url'>): boolean {
  return !NOT_EMULATED.some((rule) => rule.method === request.method && rule.path.test(request.url));
}

/** The requests of each scenario group (each group had its own real kube-apiserver). */
export class GroupRecordings {
  readonly groups: RecordedKubeRequest[][] = [];

  readonly add = (requests: RecordedKubeRequest[]): void => {
    if (requests.length > 0) this.groups.push(requests);
  };
}

/**
 * Registers, after a suite run on the real kube-apiserver, the replay of everything the CCM and
 * the harness asked it, group by group, against a fresh @ccm/kube-emulator: every status code and
 * every field the CCM reads must be the same. `available` false (no real server here) skips
 * loudly; the caller decides, as for the suite itself.
 */
export function describeEmulatorReplay(recordings: GroupRecordings, available: boolean): void {
  describe('the emulator answers what the real kube-apiserver answered (replay of the sandbox suite)', () => {
    if (!available) {
      it.skip('needs the real kube-apiserver to record the suite', () => undefined);
      return;
    }
    it('replays every recorded request against a fresh emulator per group with the same status codes and CCM-read fields', async () => {
      expect(recordings.groups.length, 'no scenario group recorded requests').toBeGreaterThan(0);
      // For working on the emulator: CCM_REPLAY_DUMP=FILE keeps the recording (replay it with
      // `node e2e/dist/bin/replay-kube-requests.js FILE`).
      const dump = process.env['CCM_REPLAY_DUMP'];
      if (dump) writeFileSync(dump, JSON.stringify(recordings.groups));
      const report: string[] = [];
      let total = 0;
      let notEmulated = 0;
      for (const [index, recorded] of recordings.groups.entries()) {
        const requests = recorded.filter(isEmulated);
        notEmulated += recorded.length - requests.length;
        total += requests.length;
        const emulator = await EmulatorBackend.start();
        try {
          const differences = await replayRequests(emulator.testClientUrl, requests);
          for (const difference of differences) report.push(`group ${index + 1} #${difference.sequence} ${difference.client} ${difference.request}: ${difference.difference}`);
        } finally {
          await emulator.close();
        }
      }
      console.info(
        `[emulator replay] ${total} requests in ${recordings.groups.length} groups replayed, ${report.length} differences (${notEmulated} delegated-auth requests not replayed: the emulator does not serve them)`,
      );
      expect(report).toEqual([]);
    }, 300_000);
  });
}
