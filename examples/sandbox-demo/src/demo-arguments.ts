/** Command line of the demo. */
export interface DemoArguments {
  /** Stop everything and exit 0 as soon as the cluster is ready (for tests). */
  exitWhenReady: boolean;
  /** Give up (exit 1) when not ready after this many seconds. */
  timeoutSeconds: number;
  /** Stream the CCM's own log lines too. */
  verbose: boolean;
  help: boolean;
}

export const DEMO_USAGE = `Usage: node examples/sandbox-demo/dist/demo.js [flags]

Starts a Kubernetes API emulator, the sandbox cloud and the sandbox cloud-controller-manager (as a
separate process), registers three nodes the way kubelets with --cloud-provider=external do, creates
a LoadBalancer Service and shows the CCM initializing the nodes, provisioning the load balancer and
programming routes. Runs until Ctrl-C.

Flags:
  --exit-when-ready     exit 0 as soon as everything is ready (used by the tests)
  --timeout=SECONDS     fail when not ready after SECONDS (default 90)
  --verbose             also print the CCM's log lines
  -h, --help            show this help
`;

export class DemoArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoArgumentError';
  }
}

export function parseDemoArguments(argv: readonly string[]): DemoArguments {
  const parsed: DemoArguments = { exitWhenReady: false, timeoutSeconds: 90, verbose: false, help: false };
  for (const argument of argv) {
    if (argument === '--exit-when-ready') parsed.exitWhenReady = true;
    else if (argument === '--verbose') parsed.verbose = true;
    else if (argument === '--help' || argument === '-h') parsed.help = true;
    else if (argument.startsWith('--timeout=')) {
      const seconds = Number(argument.slice('--timeout='.length));
      if (!Number.isFinite(seconds) || seconds <= 0) throw new DemoArgumentError(`--timeout must be a positive number of seconds, got ${JSON.stringify(argument.slice(10))}`);
      parsed.timeoutSeconds = seconds;
    } else throw new DemoArgumentError(`unknown flag ${JSON.stringify(argument)}`);
  }
  return parsed;
}
