/**
 * The zones the CCM manages (upstream `managedZones`): the local zone, or with `multizone` or
 * `regional` every zone of the region. Zones of a region are named `<region>-<letter>`, so
 * membership is decided from the name, without a `zones.list` call.
 */
export class ManagedZones {
  readonly localZone: string;
  readonly region: string;
  readonly wholeRegion: boolean;

  constructor(localZone: string, region: string, wholeRegion: boolean) {
    this.localZone = localZone;
    this.region = region;
    this.wholeRegion = wholeRegion;
  }

  /** The one zone to list in, or undefined when every zone of the region is managed. */
  get singleZone(): string | undefined {
    return this.wholeRegion ? undefined : this.localZone;
  }

  includes(zone: string): boolean {
    return this.wholeRegion ? zone.startsWith(`${this.region}-`) && !zone.slice(this.region.length + 1).includes('-') : zone === this.localZone;
  }
}
