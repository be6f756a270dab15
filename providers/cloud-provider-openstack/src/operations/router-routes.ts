/**
 * The cloud steps of Routes on one Neutron router (upstream `routes.go`): its extra routes, added
 * and removed with `add_extraroutes`/`remove_extraroutes` when Neutron has `extraroute-atomic`,
 * else by rewriting the whole list under a lock (`extraroute`); and the node ports' allowed
 * address pairs (extension `allowed-address-pairs`), so pod traffic may leave the node's port.
 * Every change returns its undo, for the capability to unwind a half-done create or delete.
 */
import { OpenStackConfigurationError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { NetworkPort, NeutronPort, NeutronRoute } from '../ports/network-port.js';

export const EXTENSION_EXTRAROUTE = 'extraroute';
export const EXTENSION_EXTRAROUTE_ATOMIC = 'extraroute-atomic';
export const EXTENSION_ALLOWED_ADDRESS_PAIRS = 'allowed-address-pairs';

export interface RouterFeatures {
  atomicRoutes: boolean;
  allowedAddressPairs: boolean;
}

/** An undo step: never throws (a failed undo is reported to `onUndoFailure`). */
export type Undo = () => Promise<void>;

export const sameRoute = (left: NeutronRoute, right: NeutronRoute): boolean => left.destination === right.destination && left.nexthop === right.nexthop;

export class RouterRouteOperations {
  readonly #network: NetworkPort;
  readonly #routerId: string;
  readonly #onUndoFailure: (what: string, error: unknown) => void;
  #features: Promise<RouterFeatures> | undefined;
  /** Serialises read-modify-write of the route list when Neutron has no atomic route calls. */
  #lock: Promise<void> = Promise.resolve();

  constructor(network: NetworkPort, options: { routerId: string; onUndoFailure: (what: string, error: unknown) => void }) {
    this.#network = network;
    this.#routerId = options.routerId;
    this.#onUndoFailure = options.onUndoFailure;
  }

  get routerId(): string {
    return this.#routerId;
  }

  /** Neutron's route extensions, read once (upstream at start-up); no `extraroute` at all is a configuration error. */
  features(options?: CallOptions): Promise<RouterFeatures> {
    this.#features ??= this.#network.listExtensionAliases(options).then((aliases) => {
      const atomicRoutes = aliases.includes(EXTENSION_EXTRAROUTE_ATOMIC);
      if (!atomicRoutes && !aliases.includes(EXTENSION_EXTRAROUTE)) {
        throw new OpenStackConfigurationError(`[Route] router-id is set but Neutron has neither the "${EXTENSION_EXTRAROUTE}" nor the "${EXTENSION_EXTRAROUTE_ATOMIC}" extension`);
      }
      return { atomicRoutes, allowedAddressPairs: aliases.includes(EXTENSION_ALLOWED_ADDRESS_PAIRS) };
    });
    this.#features.catch(() => (this.#features = undefined));
    return this.#features;
  }

  async routes(options?: CallOptions): Promise<readonly NeutronRoute[]> {
    return (await this.#network.getRouter(this.#routerId, options)).routes;
  }

  /** Adds `route` unless the router has it; returns the undo (a no-op when nothing changed). */
  async addRoute(route: NeutronRoute, options?: CallOptions): Promise<Undo> {
    const { atomicRoutes } = await this.features(options);
    if (atomicRoutes) {
      if ((await this.routes(options)).some((existing) => sameRoute(existing, route))) return noUndo;
      await this.#network.addExtraRoutes(this.#routerId, [route], options);
      return this.#undo(`remove route ${route.destination} via ${route.nexthop}`, () => this.#network.removeExtraRoutes(this.#routerId, [route]));
    }
    return this.#locked(async () => {
      const before = await this.routes(options);
      if (before.some((existing) => sameRoute(existing, route))) return noUndo;
      await this.#network.setRouterRoutes(this.#routerId, [...before, route], options);
      return this.#undo(`restore the routes of router ${this.#routerId}`, () => this.#network.setRouterRoutes(this.#routerId, before));
    });
  }

  /** Removes `route` when the router has it; returns the undo, or undefined when there was nothing to remove. */
  async removeRoute(route: NeutronRoute, options?: CallOptions): Promise<Undo | undefined> {
    const { atomicRoutes } = await this.features(options);
    if (atomicRoutes) {
      await this.#network.removeExtraRoutes(this.#routerId, [route], options);
      return this.#undo(`add back route ${route.destination} via ${route.nexthop}`, () => this.#network.addExtraRoutes(this.#routerId, [route]));
    }
    return this.#locked(async () => {
      const before = await this.routes(options);
      if (!before.some((existing) => sameRoute(existing, route))) return undefined;
      await this.#network.setRouterRoutes(this.#routerId, before.filter((existing) => !sameRoute(existing, route)), options);
      return this.#undo(`restore the routes of router ${this.#routerId}`, () => this.#network.setRouterRoutes(this.#routerId, before));
    });
  }

  /** The networks of the router's own ports (upstream `getRouterNetworkIDs`). */
  async routerNetworkIds(options?: CallOptions): Promise<string[]> {
    return [...new Set((await this.#network.listPorts({ deviceIds: [this.#routerId] }, options)).map((port) => port.networkId).filter((id) => id !== ''))];
  }

  /** Upstream `getPortByIP`: the port holding `address` on one of `networkIds` (alone on that network), or undefined. */
  async portOfAddress(address: string, networkIds: readonly string[], options?: CallOptions): Promise<NeutronPort | undefined> {
    if (networkIds.length === 0) return undefined;
    const ports = await this.#network.listPorts({ ipAddresses: [address], networkIds }, options);
    for (const networkId of networkIds) {
      const onNetwork = ports.filter((port) => port.networkId === networkId);
      if (onNetwork.length === 1) return onNetwork[0];
    }
    return undefined;
  }

  /** Adds `cidr` to the port's allowed address pairs unless there; returns the undo. */
  async allowAddress(port: NeutronPort, cidr: string, options?: CallOptions): Promise<Undo> {
    if (port.allowedAddressPairs.some((pair) => pair.ipAddress === cidr)) return noUndo;
    const before = port.allowedAddressPairs;
    await this.#network.updatePortAllowedAddressPairs(port.id, [...before, { ipAddress: cidr }], options);
    return this.#undo(`restore the allowed address pairs of port ${port.id}`, () => this.#network.updatePortAllowedAddressPairs(port.id, before));
  }

  /** Removes `cidr` from the port's allowed address pairs when there; returns the undo. */
  async disallowAddress(port: NeutronPort, cidr: string, options?: CallOptions): Promise<Undo> {
    if (!port.allowedAddressPairs.some((pair) => pair.ipAddress === cidr)) return noUndo;
    const before = port.allowedAddressPairs;
    await this.#network.updatePortAllowedAddressPairs(port.id, before.filter((pair) => pair.ipAddress !== cidr), options);
    return this.#undo(`restore the allowed address pairs of port ${port.id}`, () => this.#network.updatePortAllowedAddressPairs(port.id, before));
  }

  #undo(what: string, step: () => Promise<unknown>): Undo {
    return async () => {
      try {
        await step();
      } catch (error) {
        this.#onUndoFailure(what, error);
      }
    };
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.#lock;
    let release: () => void = () => undefined;
    this.#lock = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

const noUndo: Undo = async () => undefined;

/** Runs the undo steps, last first. */
export async function unwind(steps: readonly Undo[]): Promise<void> {
  for (const step of [...steps].reverse()) await step();
}
