/**
 * The instance type of a server (upstream `srvInstanceType`): the flavor's `original_name` when
 * Nova shows it (microversion 2.47+) and it is a valid label value, else the flavor's name from
 * `GET /flavors/{id}` when a valid label value, else the flavor ID. A flavor never changes under
 * its ID (Nova flavors are immutable), so each flavor is read once per process.
 */
import { CloudStateError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { ComputePort, OpenStackServer } from '../ports/compute-port.js';
import { isLabelValue } from './label-value.js';

export class InstanceTypes {
  readonly #compute: ComputePort;
  readonly #byFlavorId = new Map<string, Promise<string>>();

  constructor(compute: ComputePort) {
    this.#compute = compute;
  }

  async instanceTypeOf(server: OpenStackServer, options?: CallOptions): Promise<string> {
    if (server.flavor.originalName !== '' && isLabelValue(server.flavor.originalName)) return server.flavor.originalName;
    const flavorId = server.flavor.id;
    if (flavorId === '') throw new CloudStateError(`server ${server.id}: flavor original_name/id not found`);
    let name = this.#byFlavorId.get(flavorId);
    if (name === undefined) {
      name = this.#compute.getFlavor(flavorId, options).then((flavor) => (isLabelValue(flavor.name) ? flavor.name : flavor.id));
      this.#byFlavorId.set(flavorId, name);
      // A failed read is not remembered.
      name.catch(() => this.#byFlavorId.delete(flavorId));
    }
    return name;
  }
}
