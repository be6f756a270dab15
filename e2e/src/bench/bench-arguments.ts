/** Command line of `pnpm bench` (e2e/dist/bench/bench.js). */
import { BENCH_PROVIDERS, type BenchProvider } from './bench-cloud.js';

export const SCENARIOS = ['node-storm', 'service-storm', 'steady-state'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchArguments {
  scenarios: ScenarioName[];
  /** Whose CCM and cloud: the sandbox (default, every scenario) or a provider's simulator (node-storm). */
  provider: BenchProvider;
  /** Undefined: the scenario's own default. */
  nodes: number | undefined;
  services: number | undefined;
  latencyMs: number | undefined;
  /** Cloud rate limit (requests/s, burst = the same); undefined: the scenario's default. */
  rate: number | undefined;
  referenceNodes: number | undefined;
  referenceServices: number | undefined;
  /** Steady state: `--node-status-update-frequency` of both rows, seconds. */
  periodSeconds: number | undefined;
  /** The CCM's client-side cloud API budget (`api-qps`); undefined: the cloud's rate, or 1000 without one. */
  apiQps: number | undefined;
  reference: boolean;
  json: boolean;
  /** The Kubernetes API server: the emulator (default) or the real kube-apiserver (node-storm and steady-state). */
  kubeApi: 'emulator' | 'real';
  /** Give up on a row after this long. */
  timeoutSeconds: number;
  help: boolean;
}

export const BENCH_USAGE = `Usage: pnpm bench [scenario...] [flags]

Runs a cloud-controller-manager (a child process) against the kube API emulator and a cloud,
once with our policy and once with the upstream default policy (the reference row), and prints
a table to stderr (JSON to stdout with --json). The cloud is the sandbox cloud (in process), or
with --provider aws|vsphere|azure|gcp that provider's simulator (moto_server, the vcsim launcher, the
Azure simulator, the GCE simulator) behind a
counting proxy that counts the CCM's requests per cloud operation (node-storm only).

Scenarios (default: all three at their target sizes):
  node-storm      N nodes register at once with the uninitialized taint
                  (defaults --nodes 5000 --latency-ms 100 --rate 20 --reference-nodes 100)
  service-storm   S LoadBalancer services on N nodes, then one node is added
                  (defaults --services 1000 --nodes 100 --latency-ms 100 --reference-services 100)
  steady-state    N initialized nodes, one address refresh period
                  (defaults --nodes 5000 --latency-ms 100 --period-seconds 20 --reference-nodes 100)

Flags:
  --provider NAME           sandbox (default), aws, vsphere, azure, gcp or openstack; all but sandbox run node-storm only
                            (default --nodes 1000 --reference-nodes 100; no --latency-ms, --rate)
  --nodes N                 nodes (node-storm, steady-state; service-storm: nodes behind each LB)
  --services N              LoadBalancer services (service-storm)
  --latency-ms N            latency of every cloud API call
  --rate N                  cloud API rate limit, requests/s (0: none)
  --api-qps N               the CCM's cloud API budget (default: the cloud's rate, else 1000)
  --reference-nodes N       N of the upstream reference row (results extrapolated linearly to --nodes)
  --reference-services N    S of the upstream reference row in service-storm (extrapolated)
  --period-seconds N        steady-state refresh period (--node-status-update-frequency)
  --no-reference            skip the upstream reference rows
  --timeout-seconds N       give up on one row after N seconds (default 900)
  --kube-api emulator|real  the Kubernetes API server: @ccm/kube-emulator (default) or the real
                            kube-apiserver of e2e/kube-apiserver (node-storm and steady-state; needs
                            Go). With real, node-storm has a third row: a plain client (no CCM) making the CCM's writes for
                            the same nodes with our limits (the server's pace), and ours/baseline
  --json                    results as JSON on stdout
  -h, --help                this help
`;

export class BenchArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchArgumentError';
  }
}

const NUMERIC_FLAGS = {
  '--nodes': 'nodes',
  '--services': 'services',
  '--latency-ms': 'latencyMs',
  '--rate': 'rate',
  '--api-qps': 'apiQps',
  '--reference-nodes': 'referenceNodes',
  '--reference-services': 'referenceServices',
  '--period-seconds': 'periodSeconds',
  '--timeout-seconds': 'timeoutSeconds',
} as const;

type NumericFlag = keyof typeof NUMERIC_FLAGS;

const MINIMUM: Record<NumericFlag, number> = {
  '--nodes': 1,
  '--services': 1,
  '--latency-ms': 0,
  '--rate': 0,
  '--api-qps': 1,
  '--reference-nodes': 1,
  '--reference-services': 1,
  '--period-seconds': 1,
  '--timeout-seconds': 1,
};

export function parseBenchArguments(argv: readonly string[]): BenchArguments {
  const parsed: BenchArguments = {
    scenarios: [],
    provider: 'sandbox',
    nodes: undefined,
    services: undefined,
    latencyMs: undefined,
    rate: undefined,
    referenceNodes: undefined,
    referenceServices: undefined,
    periodSeconds: undefined,
    apiQps: undefined,
    reference: true,
    json: false,
    kubeApi: 'emulator',
    timeoutSeconds: 900,
    help: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--') continue;
    if (argument === '--json') parsed.json = true;
    else if (argument === '--no-reference') parsed.reference = false;
    else if (argument === '--kube-api' || argument.startsWith('--kube-api=')) {
      const value = argument.includes('=') ? argument.slice(argument.indexOf('=') + 1) : argv[++index];
      if (value !== 'emulator' && value !== 'real') throw new BenchArgumentError(`--kube-api must be "emulator" or "real", got ${JSON.stringify(value ?? '')}`);
      parsed.kubeApi = value;
    }
    else if (argument === '--help' || argument === '-h') parsed.help = true;
    else if (argument === '--provider' || argument.startsWith('--provider=')) {
      const text = argument.includes('=') ? argument.slice(argument.indexOf('=') + 1) : argv[++index];
      if (text === undefined) throw new BenchArgumentError('--provider needs a value');
      if (!(BENCH_PROVIDERS as readonly string[]).includes(text)) throw new BenchArgumentError(`--provider must be one of ${BENCH_PROVIDERS.join(', ')}, got ${JSON.stringify(text)}`);
      parsed.provider = text as BenchProvider;
    }
    else if (argument.startsWith('--')) {
      const equals = argument.indexOf('=');
      const flag = (equals > 0 ? argument.slice(0, equals) : argument) as NumericFlag;
      if (!(flag in NUMERIC_FLAGS)) throw new BenchArgumentError(`unknown flag ${flag}`);
      let text = equals > 0 ? argument.slice(equals + 1) : argv[++index];
      if (text === undefined) throw new BenchArgumentError(`${flag} needs a value`);
      text = text.trim();
      const value = Number(text);
      if (text === '' || !Number.isInteger(value) || value < MINIMUM[flag]) {
        throw new BenchArgumentError(`${flag} must be an integer >= ${MINIMUM[flag]}, got ${JSON.stringify(text)}`);
      }
      parsed[NUMERIC_FLAGS[flag]] = value;
    } else if ((SCENARIOS as readonly string[]).includes(argument)) {
      if (!parsed.scenarios.includes(argument as ScenarioName)) parsed.scenarios.push(argument as ScenarioName);
    } else {
      throw new BenchArgumentError(`unknown scenario ${JSON.stringify(argument)} (one of ${SCENARIOS.join(', ')})`);
    }
  }
  if (parsed.provider !== 'sandbox') {
    if (parsed.scenarios.length === 0) parsed.scenarios = ['node-storm'];
    const others = parsed.scenarios.filter((scenario) => scenario !== 'node-storm');
    if (others.length > 0) throw new BenchArgumentError(`--provider ${parsed.provider} runs node-storm only, not ${others.join(', ')}`);
    for (const [flag, value] of [['--latency-ms', parsed.latencyMs], ['--rate', parsed.rate]] as const) {
      if (value !== undefined) throw new BenchArgumentError(`${flag} applies to the sandbox cloud only; ${parsed.provider}'s simulator answers at its own pace`);
    }
  }
  if (parsed.scenarios.length === 0) parsed.scenarios = [...SCENARIOS];
  if (parsed.kubeApi === 'real' && parsed.scenarios.includes('service-storm')) {
    throw new BenchArgumentError('--kube-api real runs node-storm and steady-state only (service-storm drives the emulator in process): pnpm bench node-storm steady-state --kube-api real');
  }
  return parsed;
}
