/** AWS `[{Key, Value}]` tag lists <-> provider tag records. */
import type { Tags } from '../../tags.js';

export function tagsFromList(list: ReadonlyArray<{ Key?: string | undefined; Value?: string | undefined }> | undefined): Tags {
  const tags: Record<string, string> = {};
  for (const tag of list ?? []) if (tag.Key !== undefined) tags[tag.Key] = tag.Value ?? '';
  return tags;
}

export function tagsToList(tags: Tags): Array<{ Key: string; Value: string }> {
  return Object.entries(tags)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([Key, Value]) => ({ Key, Value }));
}

/**
 * The tag list of a create call: undefined when there are no tags. EC2, ELB and ELBv2 refuse an
 * empty list on create ("Tag specification must have at least one tag"; `Tags` has at least one
 * member), and a cluster without a cluster ID tags what it creates with none.
 */
export function tagsToCreateList(tags: Tags): Array<{ Key: string; Value: string }> | undefined {
  return Object.keys(tags).length > 0 ? tagsToList(tags) : undefined;
}

export function nonEmpty(value: string | undefined | null): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : value;
}
