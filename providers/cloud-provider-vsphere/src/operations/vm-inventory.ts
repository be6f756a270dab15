/**
 * The VM inventory node discovery matches against in a node storm: the identities (BIOS UUID,
 * guest hostname, guest IPs) of every VM of every searched datacenter, read with one paged
 * container-view read per datacenter instead of one search per node.
 *
 * Lookups wait `windowMs` for company (core's `Coalescer`, one read in flight); then
 * `decideInventoryRead` says whether they use the current inventory, read a new one, or search
 * VM by VM as upstream:
 * - a lone lookup (fewer than `minLookups`, the read's three calls per datacenter) searches;
 * - an inventory is reused while younger than `reuseMs`: its matches are checked against the
 *   VM's freshly read properties by the caller, so its age costs no correctness, only matches
 *   for VMs created since (those lookups search VM by VM, as upstream);
 * - when `minLookups` or more lookups find nothing in an inventory older than `refreshAfterMs`,
 *   a new one is read (VMs created during a storm cost one read, not one search each).
 */
import { Coalescer } from '@ccm/core/cloud';
import { matchInInventory, type DiscoveryStep, type InventoryPart } from './match-in-inventory.js';

export const VM_INVENTORY_READS = { windowMs: 20, minLookups: 4, reuseMs: 60_000, refreshAfterMs: 5_000 } as const;

export type InventoryReadPolicy = { readonly [Key in keyof typeof VM_INVENTORY_READS]: number };

export interface InventorySnapshot<Place> {
  /** When the read started (`now()`). */
  readAt: number;
  parts: readonly InventoryPart<Place>[];
}

export type InventoryReadDecision = 'use-current' | 'read' | 'search-each';

export interface InventoryReadInput {
  /** Age of the current inventory; undefined when there is none. */
  ageMs: number | undefined;
  /** Lookups waiting together. */
  lookups: number;
  /** Of those, the ones the current inventory has no VM for (all of them when there is none). */
  lookupsWithoutMatch: number;
}

export function decideInventoryRead(input: InventoryReadInput, policy: InventoryReadPolicy = VM_INVENTORY_READS): InventoryReadDecision {
  const usable = input.ageMs !== undefined && input.ageMs < policy.reuseMs;
  if (!usable) return input.lookups >= policy.minLookups ? 'read' : 'search-each';
  if (input.ageMs !== undefined && input.ageMs >= policy.refreshAfterMs && input.lookupsWithoutMatch >= policy.minLookups) return 'read';
  return 'use-current';
}

export interface VmInventoryOptions {
  policy?: Partial<InventoryReadPolicy>;
  now?: () => number;
  /** Observes every decision (tests, metrics). */
  onDecision?: (decision: InventoryReadDecision, lookups: number) => void;
}

interface Lookup {
  readonly id: number;
  readonly steps: readonly DiscoveryStep[];
}

export class VmInventory<Place> {
  readonly #read: (signal: AbortSignal) => Promise<InventoryPart<Place>[]>;
  readonly #policy: InventoryReadPolicy;
  readonly #now: () => number;
  readonly #onDecision: VmInventoryOptions['onDecision'];
  readonly #lookups: Coalescer<Lookup, InventorySnapshot<Place> | undefined>;
  #current: InventorySnapshot<Place> | undefined;
  #nextId = 0;

  /** `read` reads every searched place; a place that cannot be read is a part with `vms: undefined`. */
  constructor(read: (signal: AbortSignal) => Promise<InventoryPart<Place>[]>, options: VmInventoryOptions = {}) {
    this.#read = read;
    this.#policy = { ...VM_INVENTORY_READS, ...options.policy };
    this.#now = options.now ?? Date.now;
    this.#onDecision = options.onDecision;
    this.#lookups = new Coalescer<Lookup, InventorySnapshot<Place> | undefined>({
      name: 'ReadVirtualMachineInventory',
      keyId: (lookup) => lookup.id,
      batchLoad: async (lookups, { signal }) => {
        const snapshot = await this.#decide(lookups, signal);
        return new Map(lookups.map((lookup) => [lookup, snapshot]));
      },
      windowMs: this.#policy.windowMs,
      maxBatchSize: Number.MAX_SAFE_INTEGER,
      maxConcurrentBatches: 1,
      now: this.#now,
    });
  }

  /** The inventory to match `steps` against, or undefined: search VM by VM. */
  forLookup(steps: readonly DiscoveryStep[], signal?: AbortSignal): Promise<InventorySnapshot<Place> | undefined> {
    return this.#lookups.load({ id: this.#nextId++, steps }, signal === undefined ? {} : { signal });
  }

  async #decide(lookups: readonly Lookup[], signal: AbortSignal): Promise<InventorySnapshot<Place> | undefined> {
    const current = this.#current;
    const ageMs = current === undefined ? undefined : this.#now() - current.readAt;
    const lookupsWithoutMatch = current === undefined ? lookups.length : lookups.filter((lookup) => !hasMatch(current, lookup.steps)).length;
    const decision = decideInventoryRead({ ageMs, lookups: lookups.length, lookupsWithoutMatch }, this.#policy);
    this.#onDecision?.(decision, lookups.length);
    switch (decision) {
      case 'search-each':
        return undefined;
      case 'use-current':
        return current;
      case 'read': {
        const readAt = this.#now();
        const parts = await this.#read(signal);
        const snapshot = { readAt, parts };
        this.#current = snapshot;
        return snapshot;
      }
    }
  }
}

function hasMatch<Place>(snapshot: InventorySnapshot<Place>, steps: readonly DiscoveryStep[]): boolean {
  return steps.some((step) => matchInInventory(snapshot.parts, step).kind === 'found');
}
