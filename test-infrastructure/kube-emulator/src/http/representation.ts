/**
 * Rendering stored revisions as response bodies: objects and lists as JSON or YAML, and the
 * server-side conversions kubectl asks for (Table, PartialObjectMetadata).
 */
import { stringify } from 'yaml';
import type { KubeObject, ListMeta } from '../api/kube-object.js';
import { groupVersion, type ResourceDefinition, type StoredObject } from '../resources/resource-definition.js';
import { bareJson, servedObject, typedJson, typeMetaPrefix } from '../store/serialization.js';
import type { OutputFormat } from './media-type.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface RenderOptions {
  format: OutputFormat;
  includeObject: IncludeObject;
  now: Date;
}

function partialMetadataJson(apiVersion: string, definition: ResourceDefinition, stored: StoredObject): string {
  return `{"kind":"PartialObjectMetadata","apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(servedObject(definition, stored).metadata)}}`;
}

function rowJson(definition: ResourceDefinition, stored: StoredObject, options: RenderOptions, apiVersion: string): string {
  const cells = JSON.stringify(definition.table.cells(servedObject(definition, stored), options.now));
  if (options.includeObject === 'None') return `{"cells":${cells}}`;
  const object = options.includeObject === 'Object' ? typedJson(definition, stored) : partialMetadataJson(apiVersion, definition, stored);
  return `{"cells":${cells},"object":${object}}`;
}

function tableJson(definition: ResourceDefinition, items: readonly StoredObject[], metadata: ListMeta | undefined, options: RenderOptions, apiVersion: string): string {
  const rows = items.map((item) => rowJson(definition, item, options, apiVersion)).join(',');
  const meta = metadata ? JSON.stringify(metadata) : '{}';
  return `{"kind":"Table","apiVersion":${JSON.stringify(apiVersion)},"metadata":${meta},"columnDefinitions":${JSON.stringify(definition.table.columns)},"rows":[${rows}]}`;
}

function typedObjectForYaml(definition: ResourceDefinition, stored: StoredObject): KubeObject {
  return { kind: definition.kind, apiVersion: groupVersion(definition), ...servedObject(definition, stored) };
}

/** One object (GET, create, update, patch responses and watch events). */
export function renderObject(definition: ResourceDefinition, stored: StoredObject, options: RenderOptions): string {
  switch (options.format.kind) {
    case 'json':
      return typedJson(definition, stored);
    case 'yaml':
      return stringify(typedObjectForYaml(definition, stored));
    case 'table':
      return tableJson(definition, [stored], { resourceVersion: stored.metadata.resourceVersion ?? '' }, options, options.format.apiVersion);
    case 'metadata':
      return partialMetadataJson(options.format.apiVersion, definition, stored);
  }
}

/** A list response (`NodeList`, a Table, or a PartialObjectMetadataList). */
export function renderList(definition: ResourceDefinition, items: readonly StoredObject[], metadata: ListMeta, options: RenderOptions): string {
  switch (options.format.kind) {
    case 'json':
      return `{"kind":${JSON.stringify(definition.listKind)},"apiVersion":${JSON.stringify(groupVersion(definition))},"metadata":${JSON.stringify(metadata)},"items":[${items
        .map((item) => bareJson(definition, item))
        .join(',')}]}`;
    case 'yaml':
      return stringify({ kind: definition.listKind, apiVersion: groupVersion(definition), metadata, items: items.map((item) => servedObject(definition, item)) });
    case 'table':
      return tableJson(definition, items, metadata, options, options.format.apiVersion);
    case 'metadata': {
      const apiVersion = options.format.apiVersion;
      const rendered = items.map((item) => partialMetadataJson(apiVersion, definition, item)).join(',');
      return `{"kind":"PartialObjectMetadataList","apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[${rendered}]}`;
    }
  }
}

/** A watch BOOKMARK object: only kind, apiVersion and metadata.resourceVersion (plus annotations). */
export function bookmarkJson(definition: ResourceDefinition, resourceVersion: number, annotations?: Record<string, string>): string {
  const metadata = annotations ? { resourceVersion: String(resourceVersion), annotations } : { resourceVersion: String(resourceVersion) };
  return `${typeMetaPrefix(definition)},"metadata":${JSON.stringify(metadata)}}`;
}
