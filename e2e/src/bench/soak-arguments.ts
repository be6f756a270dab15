/** `pnpm bench soak` flags. */
import type { BenchProvider } from './bench-cloud.js';

export interface SoakArguments {
  minutes: number;
  provider: BenchProvider;
  /** Seed of the sandbox cloud's error sequence. */
  seed: number;
  /** Memory is judged on the samples after this many minutes. */
  warmUpMinutes: number;
  /** The RSS slope after the warm-up above which the soak fails (bytes/minute). */
  maxSlopeBytesPerMinute: number;
  /** Nodes kept in the cluster while they churn. */
  nodes: number;
  /** LoadBalancer Services kept in the cluster while they churn. */
  services: number;
  /** Probability that a cloud call fails with 500. */
  errorRate: number;
  help: boolean;
}

/**
 * 256 KiB/min: with the 512Mi container limit and ~100 MB used, a leak of that rate would take
 * more than a day to reach the limit; anything below is within the measurement noise of RSS
 * over a 25-minute window sampled every 10 s.
 */
export const DEFAULT_MAX_SLOPE_BYTES_PER_MINUTE = 256 * 1024;

export const SOAK_USAGE = `Usage: pnpm bench soak [--minutes N] [--provider sandbox] [--seed N] [--nodes N] [--services N]
                       [--error-rate P] [--warm-up-minutes N] [--max-slope-kib-per-minute N]

Steady churn of Nodes and LoadBalancer Services against the sandbox cloud with injected faults
(a seeded 500 error rate, a rate limit answering 429 with Retry-After, 50 ms latency and bursts
of Throttling errors) for --minutes (default 30). Prints the CCM's RSS and event-loop lag every
minute, then the least-squares RSS slope after the warm-up (default 5 minutes); exits 1 when the
slope is over --max-slope-kib-per-minute (default 256) or the CCM exited.
`;

export class SoakArgumentError extends Error {}

const PROVIDERS: readonly BenchProvider[] = ['sandbox'];

export function parseSoakArguments(argv: readonly string[]): SoakArguments {
  const result: SoakArguments = {
    minutes: 30,
    provider: 'sandbox',
    seed: 1,
    warmUpMinutes: 5,
    maxSlopeBytesPerMinute: DEFAULT_MAX_SLOPE_BYTES_PER_MINUTE,
    nodes: 30,
    services: 10,
    errorRate: 0.1,
    help: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === '--help' || argument === '-h') {
      result.help = true;
      continue;
    }
    const [flag, inline] = argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++index];
      if (next === undefined) throw new SoakArgumentError(`${flag} needs a value`);
      return next;
    };
    const number = (minimum: number, integer = true): number => {
      const text = value();
      const parsed = Number(text);
      if (text.trim() === '' || !Number.isFinite(parsed) || (integer && !Number.isInteger(parsed)) || parsed < minimum) {
        throw new SoakArgumentError(`${flag} must be ${integer ? 'an integer' : 'a number'} >= ${minimum}, got ${JSON.stringify(text)}`);
      }
      return parsed;
    };
    switch (flag) {
      case '--minutes':
        result.minutes = number(0.5, false);
        break;
      case '--provider': {
        const provider = value();
        if (!PROVIDERS.includes(provider as BenchProvider)) throw new SoakArgumentError(`--provider ${JSON.stringify(provider)}: the soak runs on ${PROVIDERS.join(', ')} only`);
        result.provider = provider as BenchProvider;
        break;
      }
      case '--seed':
        result.seed = number(0);
        break;
      case '--warm-up-minutes':
        result.warmUpMinutes = number(0, false);
        break;
      case '--max-slope-kib-per-minute':
        result.maxSlopeBytesPerMinute = number(0, false) * 1024;
        break;
      case '--nodes':
        result.nodes = number(1);
        break;
      case '--services':
        result.services = number(1);
        break;
      case '--error-rate': {
        const rate = number(0, false);
        if (rate > 1) throw new SoakArgumentError(`--error-rate must be between 0 and 1, got ${rate}`);
        result.errorRate = rate;
        break;
      }
      default:
        throw new SoakArgumentError(`unknown argument ${JSON.stringify(argument)}`);
    }
  }
  return result;
}
