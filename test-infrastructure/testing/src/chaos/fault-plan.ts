import { seededRandom } from '../sandbox/seeded-random.js';

/** What the fault-injecting proxy can do to one request instead of (or besides) forwarding it. */
export const FAULT_KINDS = ['serverError', 'throttle', 'timeout', 'reset', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Probability in [0, 1] of each fault for one request; their sum must not exceed 1. */
export type FaultRates = Partial<Record<FaultKind, number>>;

export interface FaultPlanOptions {
  seed: number;
  /** The rates of one operation (a function, so that reads and writes can differ). */
  ratesOf(operation: string): FaultRates;
}

/** FNV-1a over the operation name, mixed with the seed: one PRNG stream per (seed, operation). */
function streamSeed(seed: number, operation: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < operation.length; index++) {
    hash ^= operation.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Decides the fault of each request, reproducibly: every operation has its own PRNG stream
 * derived from the seed, so the n-th request of an operation gets the same answer for the same
 * seed whatever the interleaving with other operations.
 */
export class FaultPlan {
  readonly seed: number;
  readonly #ratesOf: (operation: string) => FaultRates;
  readonly #streams = new Map<string, () => number>();

  constructor(options: FaultPlanOptions) {
    this.seed = options.seed;
    this.#ratesOf = options.ratesOf;
  }

  /** A plan that never injects anything. */
  static none(): FaultPlan {
    return new FaultPlan({ seed: 0, ratesOf: () => ({}) });
  }

  /** The same rates for every operation. */
  static uniform(seed: number, rates: FaultRates): FaultPlan {
    return new FaultPlan({ seed, ratesOf: () => rates });
  }

  /** The fault of the next request of `operation`, or undefined to forward it untouched. */
  next(operation: string): FaultKind | undefined {
    let stream = this.#streams.get(operation);
    if (stream === undefined) {
      stream = seededRandom(streamSeed(this.seed, operation));
      this.#streams.set(operation, stream);
    }
    const draw = stream();
    const rates = this.#ratesOf(operation);
    let threshold = 0;
    for (const kind of FAULT_KINDS) {
      threshold += rates[kind] ?? 0;
      if (draw < threshold) return kind;
    }
    return undefined;
  }
}
