import { realKubeApiServerUnavailableReason } from './real-kube-api-server.js';

/** Which Kubernetes API server a test talks to. */
export type KubeApiKind = 'real' | 'emulator';

/** How `CCM_KUBE_API` and `CI` pick the server, before knowing whether the real one can run. */
export type KubeApiRequest = { kind: KubeApiKind; explicit: boolean } | { kind: 'invalid'; message: string };

/**
 * `CCM_KUBE_API=real|emulator` chooses; unset, CI (`CI=true`) uses the real kube-apiserver and a
 * laptop uses it when it can be built here, the emulator otherwise.
 */
export function requestedKubeApi(environment: Record<string, string | undefined> = process.env): KubeApiRequest {
  const value = environment['CCM_KUBE_API']?.trim();
  if (value === undefined || value === '') return { kind: 'real', explicit: environment['CI'] === 'true' };
  if (value === 'real' || value === 'emulator') return { kind: value, explicit: true };
  return { kind: 'invalid', message: `CCM_KUBE_API must be "real" or "emulator", not ${JSON.stringify(value)}` };
}

/** The server to use, or why none can be used (the reason names what to install). */
export type KubeApiSelection = { kind: KubeApiKind; notice?: string } | { kind: 'unavailable'; reason: string };

let noticeShown = false;

export async function selectKubeApi(
  environment: Record<string, string | undefined> = process.env,
  realUnavailableReason: () => Promise<string | undefined> = realKubeApiServerUnavailableReason,
): Promise<KubeApiSelection> {
  const request = requestedKubeApi(environment);
  if (request.kind === 'invalid') return { kind: 'unavailable', reason: request.message };
  if (request.kind === 'emulator') return { kind: 'emulator' };
  const reason = await realUnavailableReason();
  if (reason === undefined) return { kind: 'real' };
  if (request.explicit) return { kind: 'unavailable', reason: `the real kube-apiserver is needed (CCM_KUBE_API=real, or CI=true) but ${reason}` };
  const notice = `NOTICE: the real kube-apiserver cannot be built here (${reason}); using @ccm/kube-emulator. Set CCM_KUBE_API=real to require it.`;
  if (!noticeShown) {
    noticeShown = true;
    console.warn(notice);
  }
  return { kind: 'emulator', notice };
}
