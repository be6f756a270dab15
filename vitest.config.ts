import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './scripts/vitest/slowest-first-sequencer.js';

/**
 * Tests import these workspace packages from their sources, so that one test process holds one
 * instance of each module: core's own tests use the in-memory kube of `@ccm/testing/kube`, which
 * itself imports `@ccm/core/*`; resolved to dist, those would be a second copy of core (another
 * `KubeApiError` class, another registry of metrics). The aliases follow each package's
 * `exports` (`./dist/<path>.js` -> `./src/<path>.ts`), so a new subpath needs no change here.
 */
const SOURCE_PACKAGES = ['packages/core', 'test-infrastructure/testing'];

function sourceAliases(): Array<{ find: RegExp; replacement: string }> {
  const aliases: Array<{ find: RegExp; replacement: string }> = [];
  for (const directory of SOURCE_PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { default: string }> };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const built = typeof target === 'string' ? target : target.default;
      if (!built.startsWith('./dist/') || !built.endsWith('.js')) continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const source = `./src/${built.slice('./dist/'.length, -'.js'.length)}.ts`;
      aliases.push({ find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), replacement: resolve(directory, source) });
    }
  }
  return aliases;
}

/** Every test file of the repository. */
const TEST_FILES = [
  'packages/*/src/**/*.test.ts',
  'test-infrastructure/*/src/**/*.test.ts',
  'providers/*/src/**/*.test.ts',
  'providers/*/test/**/*.test.ts',
  'examples/*/src/**/*.test.ts',
  'examples/*/test/**/*.test.ts',
  'e2e/src/**/*.test.ts',
  'manifests/**/*.test.ts',
  'scripts/**/*.test.ts',
  'charts/**/*.test.ts',
  'docs/*.test.ts',
];

/**
 * Files that run in a process of their own (project `isolated`): the e2e suites (minutes each,
 * real API servers and simulators, where a process start costs nothing in comparison), the files
 * that mostly wait on child processes (the providers' own e2e files, the scaffold's end-to-end
 * test, the OpenStack services' start, the gcloud client): they overlap with the e2e suites'
 * waits instead of holding one of the two CPU-bound workers of the last phase; and the files that
 * change process-wide state: environment variables, module mocks, process listeners.
 * Every other file runs in project `shared`, whose two worker processes run file after file
 * (`isolate: false`): the modules of core and the providers are loaded once per worker instead of
 * once per file, which was most of the unit tests' time (docs/performance.md, "Test suite").
 * A new file that sets `process.env`, calls `vi.mock`/`vi.stubGlobal`/`vi.stubEnv` or leaves
 * fake timers on belongs in this list.
 */
const ISOLATED_FILES = [
  'e2e/src/**/*.test.ts',
  'providers/*/test/e2e/**/*.test.ts',
  'scripts/create-provider/create-provider.test.ts',
  'test-infrastructure/openstack-services/src/openstack-services.test.ts',
  'test-infrastructure/gce-simulator/src/gcloud-client.test.ts',
  'test-infrastructure/azure-simulator/src/credential-grants.test.ts',
  'packages/core/src/app/serving/profiler-unavailable.test.ts',
  'test-infrastructure/openstack-services/src/openstack-cli.test.ts',
  'providers/cloud-provider-aws/test/simulator/sdk-adapters.moto.test.ts',
  'providers/cloud-provider-azure/test/simulator/credential-kinds.simulator.test.ts',
  'providers/cloud-provider-gcp/test/simulator/metadata-defaults.simulator.test.ts',
  'providers/cloud-provider-vsphere/test/simulator/vcsim-go-version.test.ts',
  'scripts/quick-check.test.ts',
];

/**
 * Files that use the real OpenStack services without testing their start-up (project
 * `openstack-services`): its global setup starts them once for all of these files, which use
 * names unique to their run and tolerate each other's resources (they may run side by side).
 * Two files keep their own start: `test-infrastructure/openstack-services/src/openstack-services.test.ts`
 * (the start and the close are what it tests) and `e2e/src/chaos/openstack.chaos.test.ts` (its
 * convergence budget is about the CCM: with the services shared, the other files' calls queue in
 * the same single-process Neutron and Octavia API, and its teardown timed out there at load 24).
 */
const OPENSTACK_SERVICES_FILES = [
  'e2e/src/conformance/openstack.conformance.test.ts',
  'e2e/src/image/openstack.image.test.ts',
  'packages/openstack-client-ts/src/integration/openstack-client.integration.test.ts',
  'providers/cloud-provider-openstack/test/simulator/load-balancer-sdk.integration.test.ts',
  'providers/cloud-provider-openstack/test/simulator/openstack-port-contracts.integration.test.ts',
];

/**
 * Files at a time in a process of their own: the e2e files mostly wait (on API servers, simulators,
 * lease periods, convergence), so four share the two cores (with three, a clean-clone run left the
 * CPUs idle 15-20 % of that phase); the shared project's files are CPU-bound and run two at a
 * time. vitest runs groups of different worker counts one after the other (`sequence.groupOrder`):
 * first every file that runs in its own process, then the shared ones.
 */
const ISOLATED_WORKERS = 4;
const SHARED_WORKERS = 2;

const EXCLUDED = ['**/node_modules/**', '**/dist/**'];

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    exclude: EXCLUDED,
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: SHARED_WORKERS,
    // Slowest first from the checked-in timings (a clean clone has no results cache).
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES, exclude: [...EXCLUDED, ...OPENSTACK_SERVICES_FILES], isolate: true, maxWorkers: ISOLATED_WORKERS, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'openstack-services', include: OPENSTACK_SERVICES_FILES, isolate: true, maxWorkers: ISOLATED_WORKERS, sequence: { groupOrder: 0 }, globalSetup: ['./scripts/vitest/openstack-services-global-setup.ts'] },
      },
      { extends: true, test: { name: 'shared', include: TEST_FILES, exclude: [...EXCLUDED, ...ISOLATED_FILES, ...OPENSTACK_SERVICES_FILES], isolate: false, maxWorkers: SHARED_WORKERS, sequence: { groupOrder: 1 } } },
    ],
  },
});
