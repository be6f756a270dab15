/**
 * What strategic merge patch needs to know about a type: which lists merge (and by which key)
 * and which fields are maps of structs. Mirrors the `patchStrategy`/`patchMergeKey` struct tags
 * of k8s.io/api. Anything not described here merges maps recursively and replaces lists.
 */
export interface PatchSchema {
  /** Known fields of a struct. */
  fields?: Readonly<Record<string, PatchSchema>>;
  /** Schema of the elements of a list. */
  items?: PatchSchema;
  /** `merge` for lists tagged patchStrategy:"merge"; lists default to replace. */
  listStrategy?: 'merge' | 'replace';
  /** patchMergeKey of a merge list of objects. */
  mergeKey?: string;
}

export const objectMetaPatchSchema: PatchSchema = {
  fields: {
    finalizers: { listStrategy: 'merge' },
    ownerReferences: { listStrategy: 'merge', mergeKey: 'uid' },
  },
};

/** A schema for a top-level object: metadata plus the given fields. */
export function objectPatchSchema(fields: Record<string, PatchSchema> = {}): PatchSchema {
  return { fields: { metadata: objectMetaPatchSchema, ...fields } };
}

export const conditionsPatchSchema: PatchSchema = { listStrategy: 'merge', mergeKey: 'type' };
