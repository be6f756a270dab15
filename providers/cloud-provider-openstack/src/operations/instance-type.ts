/**
 * The instance type of a server (upstream `srvInstanceType`): the flavor's `original_name` when
 * Nova shows it (microversion 2.47+) and it is a valid label value, else the flavor's name when a
 * valid label value, else the flavor ID. Upstream reads the name with `GET /flavors/{id}` each
 * time; here the first lookup lists the flavors once (`GET /flavors`, one call for every flavor
 * of the cluster) and only a flavor missing from that list (private to another project, disabled,
 * created later) is read by ID. A flavor never changes under its ID (Nova flavors are immutable),
 * so each answer is kept for the life of the process; a failed read is not.
 *
 * The shared reads are not tied to any caller: each caller stops waiting when its own signal is
 * aborted, and the read goes on for the others (and for the cache).
 */
import { CloudStateError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, OpenStackFlavor, OpenStackServer } from '../ports/compute-port.js';
import { isLabelValue } from './label-value.js';

/** `shared`, or the caller's abort reason as soon as its signal is aborted. */
function untilAborted<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return shared;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The instance type a flavor gives: its name when a valid label value, else its ID. */
export function instanceTypeOfFlavor(flavor: OpenStackFlavor): string {
  return isLabelValue(flavor.name) ? flavor.name : flavor.id;
}

export class InstanceTypes {
  readonly #compute: ComputePort;
  /** Instance type by flavor ID, settled or in flight. */
  readonly #byFlavorId = new Map<string, Promise<string>>();
  /** The flavor list, once read (or while being read). */
  #listed: Promise<ReadonlyMap<string, OpenStackFlavor>> | undefined;

  constructor(compute: ComputePort) {
    this.#compute = compute;
  }

  async instanceTypeOf(server: OpenStackServer, options?: CallOptions): Promise<string> {
    if (server.flavor.originalName !== '' && isLabelValue(server.flavor.originalName)) return server.flavor.originalName;
    const flavorId = server.flavor.id;
    if (flavorId === '') throw new CloudStateError(`server ${server.id}: flavor original_name/id not found`);
    let instanceType = this.#byFlavorId.get(flavorId);
    if (instanceType === undefined) {
      instanceType = this.#read(flavorId);
      this.#byFlavorId.set(flavorId, instanceType);
      instanceType.catch(() => this.#byFlavorId.delete(flavorId));
    }
    return untilAborted(instanceType, options?.signal);
  }

  /** From the flavor list when it has the flavor, else `GET /flavors/{id}` (no caller's signal: the read is shared). */
  async #read(flavorId: string): Promise<string> {
    const listed = (await this.#flavorList().catch(() => undefined))?.get(flavorId);
    return instanceTypeOfFlavor(listed ?? (await this.#compute.getFlavor(flavorId)));
  }

  /** The flavor list, read once; a failed read is forgotten (the lookup then reads its flavor by ID). */
  #flavorList(): Promise<ReadonlyMap<string, OpenStackFlavor>> {
    if (this.#listed === undefined) {
      const listed = this.#compute.listFlavors().then((flavors) => new Map(flavors.map((flavor) => [flavor.id, flavor])));
      this.#listed = listed;
      listed.catch(() => {
        if (this.#listed === listed) this.#listed = undefined;
      });
    }
    return this.#listed;
  }
}
