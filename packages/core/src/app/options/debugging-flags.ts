import { defineFlagGroup } from './flag-definition.js';

/**
 * Upstream `debugging` section (k8s.io/controller-manager options/debugging.go). `--profiling`
 * serves `/debug/pprof/` (Node's CPU and sampled heap profiles, `serving/profiler.ts`) and
 * `/debug/flags/v` on the secure port.
 */
export const debuggingFlags = defineFlagGroup('debugging', {
  profiling: {
    name: 'profiling',
    type: 'bool',
    default: true,
    help: 'Enable profiling via web interface host:port/debug/pprof/.',
  },
  contentionProfiling: {
    name: 'contention-profiling',
    type: 'bool',
    default: false,
    help: 'Enable block profiling, if profiling is enabled.',
    ignored: 'Node.js has no block profiler',
  },
});
