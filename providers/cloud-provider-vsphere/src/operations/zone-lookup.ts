/**
 * Zone and region from vSphere tags (upstream LookupZoneByMoref): the tag categories named in
 * `labels.zone` / `labels.region`, looked up on the VM's host and its ancestors (cluster,
 * folders, datacenter), nearest first. When the host chain lacks a configured category, the
 * VM's resource pool chain and then the VM's own chain are tried, as upstream does.
 *
 * As upstream, zones are looked up only when both `labels.zone` and `labels.region` are set: with
 * one of them alone, nodes get no zone and no region, no tag is read, and nothing can fail (a
 * node is never left uninitialized for a category that is not used).
 *
 * Difference to upstream, on purpose: upstream keeps overwriting a found zone with tags of
 * farther ancestors until both categories are found; here the nearest tag of each category
 * wins, which is what the documentation describes.
 *
 * Tag and category names are cached for `cacheTtlMs` (a renamed tag shows up after that);
 * attachments are read on every lookup.
 */
import type { LabelsConfig } from '../config/vsphere-config.js';
import { VsphereProviderError } from '../errors.js';
import type { CategoryRecord, ObjectRef, TagRecord, TaggingPort, VcenterPort, VmRecord } from '../ports/vcenter-port.js';

export interface ZoneAndRegion {
  zone: string;
  region: string;
}

export interface ZoneLookupOptions {
  cacheTtlMs?: number;
  now?: () => number;
}

interface Cached<T> {
  value: Promise<T>;
  expiresAt: number;
}

export class ZoneLookup {
  readonly #labels: LabelsConfig;
  readonly #cacheTtlMs: number;
  readonly #now: () => number;
  readonly #tags = new Map<string, Cached<TagRecord>>();
  readonly #categories = new Map<string, Cached<CategoryRecord>>();

  constructor(labels: LabelsConfig, options: ZoneLookupOptions = {}) {
    this.#labels = labels;
    this.#cacheTtlMs = options.cacheTtlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Both categories configured (upstream looks zones up only then). */
  get enabled(): boolean {
    return this.#labels.zone !== '' && this.#labels.region !== '';
  }

  /** Exactly one of `labels.zone` / `labels.region` is set: it has no effect (worth a warning). */
  get halfConfigured(): boolean {
    return (this.#labels.zone !== '') !== (this.#labels.region !== '');
  }

  /** `nodeId` names the node in errors (`node-1 [4237...]`). */
  async zoneOf(port: VcenterPort, vm: VmRecord, nodeId: string, signal?: AbortSignal): Promise<ZoneAndRegion> {
    if (!this.enabled) return { zone: '', region: '' };
    const starts = [vm.host, vm.resourcePool, vm.ref].filter((ref): ref is ObjectRef => ref !== undefined);
    let best: ZoneAndRegion = { zone: '', region: '' };
    for (const start of starts) {
      const found = await this.#lookup(port, start, signal);
      best = { zone: best.zone || found.zone, region: best.region || found.region };
      if (this.#complete(best)) return best;
    }
    const problems: string[] = [];
    if (best.region === '') problems.push(`vSphere region category ${JSON.stringify(this.#labels.region)} does not match any tag`);
    if (best.zone === '') problems.push(`vSphere zone category ${JSON.stringify(this.#labels.zone)} does not match any tag`);
    throw new VsphereProviderError(
      'ZoneNotFound',
      `${problems.join(' and ')} on the host, resource pool or VM of node ${nodeId} or their ancestors on vCenter ${JSON.stringify(port.name)}: tag them (labels.zone/labels.region name tag categories)`,
      { vcenter: port.name },
    );
  }

  #complete(result: ZoneAndRegion): boolean {
    return result.zone !== '' && result.region !== '';
  }

  async #lookup(port: VcenterPort, start: ObjectRef, signal?: AbortSignal): Promise<ZoneAndRegion> {
    const result: ZoneAndRegion = { zone: '', region: '' };
    const chain = await port.ancestors(start, signal);
    for (const entity of chain) {
      for (const tagId of await port.tagging.listAttachedTags(entity.ref, signal)) {
        const tag = await this.#cached(this.#tags, `${port.name}/${tagId}`, () => port.tagging.getTag(tagId, signal));
        const category = await this.#cached(this.#categories, `${port.name}/${tag.categoryId}`, () => port.tagging.getCategory(tag.categoryId, signal));
        if (category.name === this.#labels.zone && result.zone === '') result.zone = tag.name;
        if (category.name === this.#labels.region && result.region === '') result.region = tag.name;
        if (this.#complete(result)) return result;
      }
    }
    return result;
  }

  #cached<T>(cache: Map<string, Cached<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.#now();
    const hit = cache.get(key);
    if (hit !== undefined && hit.expiresAt > now) return hit.value;
    const value = load();
    cache.set(key, { value, expiresAt: now + this.#cacheTtlMs });
    value.catch(() => cache.delete(key));
    return value;
  }

  /**
   * The configured categories that do not exist on a vCenter (startup check); empty unless both
   * labels are configured.
   */
  async missingCategories(tagging: TaggingPort, signal?: AbortSignal): Promise<string[]> {
    if (!this.enabled) return [];
    const wanted = [this.#labels.zone, this.#labels.region];
    const names = new Set<string>();
    for (const id of await tagging.listCategories(signal)) names.add((await tagging.getCategory(id, signal)).name);
    return wanted.filter((name) => !names.has(name));
  }
}
