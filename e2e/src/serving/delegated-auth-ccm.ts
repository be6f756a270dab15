/**
 * A CCM whose secure port delegates to the cluster as upstream's does by default: the common
 * e2e flags, except that `/metrics` is not added to the always-allow paths (pflag appends repeated
 * list flags, so a later flag could not take it out again), plus the authentication and
 * authorization kubeconfigs (the CCM's own ServiceAccount: what it uses in a pod).
 */
import type { CcmProcessSpec } from '../conformance/provider-driver.js';
import { commonCcmFlags } from '../harness/ccm-flags.js';
import { SpawnedProcess } from '../harness/ccm-process.js';
import { findFreePort } from '../harness/free-port.js';
import { DEFAULT_WAIT_MS } from '../harness/test-cluster.js';
import { waitFor } from '../harness/wait-for.js';
import { delegatedAuthFlags, fetchSecurePort } from './secure-port-client.js';

export interface DelegatedAuthCcm {
  readonly process: SpawnedProcess;
  readonly securePort: number;
  stop(): Promise<void>;
}

export interface DelegatedAuthCcmOptions {
  label: string;
  kubeconfigPath: string;
  /** Appended last. */
  extraFlags?: string[];
  /** Wait until /healthz answers 200 (default true). */
  waitUntilHealthy?: boolean;
}

export function delegatedAuthCcmFlags(kubeconfigPath: string, securePort: number): string[] {
  const common = commonCcmFlags({ kubeconfigPath, securePort }).filter((flag) => !flag.startsWith('--authorization-always-allow-paths='));
  return [...common, ...delegatedAuthFlags(kubeconfigPath)];
}

export async function startDelegatedAuthCcm(spec: CcmProcessSpec, options: DelegatedAuthCcmOptions): Promise<DelegatedAuthCcm> {
  const securePort = await findFreePort();
  const process = SpawnedProcess.start({ label: options.label, spec, extraArgs: [...delegatedAuthCcmFlags(options.kubeconfigPath, securePort), ...(options.extraFlags ?? [])] });
  const started: DelegatedAuthCcm = { process, securePort, stop: async () => void (await process.stop()) };
  if (options.waitUntilHealthy ?? true) {
    try {
      await waitFor(
        `${options.label} to serve /healthz with 200 on port ${securePort}`,
        async (observe) => {
          const response = await fetchSecurePort(securePort, '/healthz').catch((error: unknown) => ({ status: 0, body: String(error) }));
          observe(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
          return response.status === 200;
        },
        DEFAULT_WAIT_MS,
        { abortIf: () => (process.isRunning() ? undefined : `${process.describeState()} before serving`), describeContext: () => process.report(80) },
      );
    } catch (error) {
      await process.stop();
      throw error;
    }
  }
  return started;
}
