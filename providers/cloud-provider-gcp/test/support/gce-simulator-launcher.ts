/**
 * Starts the GCE simulator (`@ccm/gce-simulator`, a workspace package) in-process, and says why
 * it cannot when it is not built. When Compute's discovery document is installed
 * (`.ci/install-prerequisites`, section gce-discovery) every request is checked against it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GceSimulator } from '@ccm/gce-simulator';

export const GCE_SIMULATOR_INSTALL_HINT = 'build the workspace (`npx -y pnpm@10.34.8 build`, or `pnpm exec tsc -b test-infrastructure/gce-simulator`)';

/** The simulator as the tests use it (its own type, loaded at run time: see `startSimulator`). */
export type RunningGceSimulator = Pick<GceSimulator, 'url' | 'project' | 'region' | 'zones' | 'network' | 'tokenUrl' | 'metadataHost' | 'discoveryViolations' | 'close'>;

const require = createRequire(import.meta.url);

function simulatorEntry(): string | undefined {
  try {
    return require.resolve('@ccm/gce-simulator');
  } catch {
    return undefined;
  }
}

export function gceSimulatorUnavailableReason(): string | undefined {
  const entry = simulatorEntry();
  return entry !== undefined && existsSync(entry) ? undefined : '@ccm/gce-simulator is not built (its dist/index.js is missing)';
}

export async function startSimulator(options: { project?: string; region?: string; zones?: string[]; network?: string; allowAnonymous?: boolean } = {}): Promise<RunningGceSimulator> {
  const simulator = (await import('@ccm/gce-simulator')) as typeof import('@ccm/gce-simulator');
  const document = simulator.discoveryDocumentPath();
  return simulator.startGceSimulator({ ...options, ...(existsSync(document) ? { discoveryDocument: document } : {}) });
}
