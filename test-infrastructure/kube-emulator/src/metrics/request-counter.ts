/** Counts API requests by verb and resource, like apiserver_request_total (the benchmark reports writes). */

export const writeVerbs: readonly string[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];

export interface RequestCounts {
  total: number;
  /** create + update + patch + delete + deletecollection. */
  writes: number;
  byVerb: Record<string, number>;
  /** resource (e.g. `nodes`, `nodes/status`, `leases.coordination.k8s.io`) -> verb -> count. */
  byResource: Record<string, Record<string, number>>;
  /** Discovery, health, version and OpenAPI requests. */
  nonResource: number;
}

export class RequestCounter {
  private counts: RequestCounts = RequestCounter.empty();

  private static empty(): RequestCounts {
    return { total: 0, writes: 0, byVerb: {}, byResource: {}, nonResource: 0 };
  }

  recordResource(verb: string, resource: string): void {
    this.counts.total++;
    if (writeVerbs.includes(verb)) this.counts.writes++;
    this.counts.byVerb[verb] = (this.counts.byVerb[verb] ?? 0) + 1;
    const perVerb = (this.counts.byResource[resource] ??= {});
    perVerb[verb] = (perVerb[verb] ?? 0) + 1;
  }

  recordNonResource(): void {
    this.counts.total++;
    this.counts.nonResource++;
  }

  snapshot(): RequestCounts {
    return {
      total: this.counts.total,
      writes: this.counts.writes,
      byVerb: { ...this.counts.byVerb },
      byResource: Object.fromEntries(Object.entries(this.counts.byResource).map(([resource, verbs]) => [resource, { ...verbs }])),
      nonResource: this.counts.nonResource,
    };
  }

  reset(): void {
    this.counts = RequestCounter.empty();
  }
}
