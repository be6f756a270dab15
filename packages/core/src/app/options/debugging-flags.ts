import { defineFlagGroup } from './flag-definition.js';

/** Upstream `debugging` section (k8s.io/controller-manager options/debugging.go). */
export const debuggingFlags = defineFlagGroup('debugging', {
  profiling: {
    name: 'profiling',
    type: 'bool',
    default: true,
    help: 'Enable profiling via web interface host:port/debug/pprof/.',
    ignored: 'Node.js has no pprof endpoints; use `node --inspect` or `--cpu-prof` on a copy of the pod instead',
  },
  contentionProfiling: {
    name: 'contention-profiling',
    type: 'bool',
    default: false,
    help: 'Enable block profiling, if profiling is enabled.',
    ignored: 'Node.js has no block profiler',
  },
});
