/**
 * One entry of the resource table: everything the generic store, HTTP layer, discovery and
 * table printing need to serve a resource. Adding a resource is adding one definition to
 * resource-table.ts.
 */
import type { FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/kube-object.js';
import type { PatchSchema } from '../patch/patch-schema.js';
import type { TimePrecision } from '../util/time.js';
import type { NameValidator } from './name-validation.js';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  /** 0 = always shown, 1 = shown with `-o wide`. */
  priority: number;
}

/** A stored revision of an object (storage form: no apiVersion/kind). Never mutated. */
export type StoredObject = Readonly<KubeObject>;

/** Read access to the store and the clock, given to resource hooks. */
export interface ResourceContext {
  now(): Date;
  /** Every stored object of a storage (e.g. all Services, to find allocated cluster IPs). */
  listStored(storageKey: string): StoredObject[];
}

/** A path to a timestamp field; `*` steps into every element of a list. */
export interface TimeField {
  path: readonly string[];
  precision: TimePrecision;
}

export interface ResourceDefinition {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories?: readonly string[];
  readonly verbs: readonly Verb[];
  /** Whether `<plural>/status` exists (then writes to the main resource ignore .status). */
  readonly hasStatus: boolean;
  /** Definitions serving the same objects in two API versions share a storage key. */
  readonly storageKey: string;
  /** Whether PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /**
   * Whether DELETE answers with the deleted object instead of a Success Status (kube-apiserver
   * does so for Services only among the resources served here).
   */
  readonly returnsDeletedObject?: boolean;
  readonly validateName: NameValidator;
  /** Field selectors kube supports for this resource; values are read from the storage form. */
  readonly fieldSelectors: Readonly<Record<string, (object: StoredObject) => string>>;
  /** Strategic merge patch schema of the external (served) form. */
  readonly patchSchema: PatchSchema;
  /** Timestamps normalised on write (storage form). */
  readonly timeFields: readonly TimeField[];
  /** Conversion between the served form and the storage form, when they differ. */
  readonly conversion?: {
    toStorage(object: KubeObject): KubeObject;
    fromStorage(object: StoredObject): KubeObject;
  };
  /** Defaults and clean-up on create (storage form, mutable). May throw KubeStatusError. */
  prepareForCreate?(object: KubeObject, context: ResourceContext): void;
  /** Defaults and clean-up on update (storage form, mutable `object`). */
  prepareForUpdate?(object: KubeObject, old: StoredObject, context: ResourceContext): void;
  /** Validation of the whole object, on create and on every update. */
  validate?(object: KubeObject, context: ResourceContext): FieldError[];
  /** Extra validation of a create. */
  validateCreate?(object: KubeObject, context: ResourceContext): FieldError[];
  /** Extra validation of an update against the previous revision. */
  validateUpdate?(object: KubeObject, old: StoredObject, context: ResourceContext): FieldError[];
  /** Allocation of shared resources (cluster IPs, node ports) right before a write commits. */
  allocate?(object: KubeObject, old: StoredObject | undefined, context: ResourceContext): FieldError[];
  /** Fields the API always renders (Go structs without omitempty), added after every write. */
  renderDefaults?(object: KubeObject): void;
  readonly table: {
    columns: readonly TableColumn[];
    /** Cells of one row, from the served form. */
    cells(object: KubeObject, now: Date): unknown[];
  };
}

export const groupVersion = (definition: Pick<ResourceDefinition, 'group' | 'version'>): string =>
  definition.group ? `${definition.group}/${definition.version}` : definition.version;
