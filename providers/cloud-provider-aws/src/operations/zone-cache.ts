/**
 * Availability zone name -> {zone ID, zone type} (upstream `zoneCache`). Filled with one
 * DescribeAvailabilityZones and refilled when an unknown zone is asked for; concurrent refills
 * share one call.
 */
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2AvailabilityZone, Ec2Port } from '../ports/ec2-port.js';

export class ZoneCache {
  readonly #ec2: Ec2Port;
  #zones = new Map<string, Ec2AvailabilityZone>();
  #refresh: Promise<void> | undefined;

  constructor(ec2: Ec2Port) {
    this.#ec2 = ec2;
  }

  /** Undefined when EC2 does not list the zone even after a refresh. */
  async zone(zoneName: string, options?: CallOptions): Promise<Ec2AvailabilityZone | undefined> {
    const cached = this.#zones.get(zoneName);
    if (cached) return cached;
    await this.#refill(options);
    return this.#zones.get(zoneName);
  }

  /** Zone info for many names with at most one refresh. */
  async zones(zoneNames: Iterable<string>, options?: CallOptions): Promise<Map<string, Ec2AvailabilityZone>> {
    const names = [...new Set(zoneNames)];
    if (names.some((name) => !this.#zones.has(name))) await this.#refill(options);
    const result = new Map<string, Ec2AvailabilityZone>();
    for (const name of names) {
      const zone = this.#zones.get(name);
      if (zone) result.set(name, zone);
    }
    return result;
  }

  #refill(options?: CallOptions): Promise<void> {
    this.#refresh ??= (async () => {
      try {
        const zones = await this.#ec2.describeAvailabilityZones(options);
        this.#zones = new Map(zones.map((zone) => [zone.zoneName, zone]));
      } finally {
        this.#refresh = undefined;
      }
    })();
    return this.#refresh;
  }
}
