/**
 * PropertyCollector request specs (PropertyFilterSpec and friends) and the decoding of its
 * answers (RetrieveResult / ObjectContent). Element order follows the VIM schema.
 */
import { VsphereError, kindOfFault, type VsphereErrorKind } from '../vsphere-error.js';
import type { XmlNode } from '../xml/parse-xml.js';
import { child, childText, children, xsiTypeOf } from '../xml/xml-node.js';
import { xmlElement, xmlOptionalText, xmlText } from '../xml/xml-writer.js';
import { managedObjectReferenceXml, readManagedObjectReference, type ManagedObjectReference } from './managed-object-reference.js';

export interface PropertySpec {
  /** Managed object type; a base type (`ManagedEntity`) matches its subtypes. */
  type: string;
  paths?: readonly string[];
  all?: boolean;
}

/** A reference to a named traversal (recursion). */
export interface SelectionSpec {
  name: string;
}

export interface TraversalSpec {
  name?: string;
  type: string;
  path: string;
  skip?: boolean;
  selectSet?: ReadonlyArray<TraversalSpec | SelectionSpec>;
}

export interface ObjectSpec {
  obj: ManagedObjectReference;
  skip?: boolean;
  selectSet?: ReadonlyArray<TraversalSpec | SelectionSpec>;
}

export interface PropertyFilterSpec {
  propSet: readonly PropertySpec[];
  objectSet: readonly ObjectSpec[];
  /** Report missing objects per object instead of failing the whole call (vSphere 4.1+). */
  reportMissingObjectsInResults?: boolean;
}

function isTraversal(spec: TraversalSpec | SelectionSpec): spec is TraversalSpec {
  return 'path' in spec;
}

function selectionXml(spec: TraversalSpec | SelectionSpec): string {
  if (!isTraversal(spec)) return xmlElement('selectSet', xmlText('name', spec.name), { 'xsi:type': 'SelectionSpec' });
  return xmlElement(
    'selectSet',
    [
      xmlOptionalText('name', spec.name),
      xmlText('type', spec.type),
      xmlText('path', spec.path),
      xmlText('skip', spec.skip ?? false),
      ...(spec.selectSet ?? []).map(selectionXml),
    ],
    { 'xsi:type': 'TraversalSpec' },
  );
}

/** `<specSet>` for RetrievePropertiesEx. */
export function propertyFilterSpecXml(spec: PropertyFilterSpec, elementName = 'specSet'): string {
  const properties = spec.propSet.map((property) =>
    xmlElement('propSet', [
      xmlText('type', property.type),
      xmlText('all', property.all ?? false),
      ...(property.paths ?? []).map((path) => xmlText('pathSet', path)),
    ]),
  );
  const objects = spec.objectSet.map((object) =>
    xmlElement('objectSet', [
      managedObjectReferenceXml('obj', object.obj),
      xmlText('skip', object.skip ?? false),
      ...(object.selectSet ?? []).map(selectionXml),
    ]),
  );
  return xmlElement(elementName, [...properties, ...objects, xmlOptionalText('reportMissingObjectsInResults', spec.reportMissingObjectsInResults)]);
}

/** `<options>` of RetrievePropertiesEx. */
export function retrieveOptionsXml(maxObjects: number | undefined): string {
  return xmlElement('options', maxObjects === undefined ? '' : xmlText('maxObjects', maxObjects));
}

/** A property the server could not return for one object, with the reason. */
export interface MissingProperty {
  path: string;
  faultType: string | undefined;
  kind: VsphereErrorKind;
}

/** One object of a RetrieveResult: raw property values by path, plus what was missing. */
export interface ObjectContent {
  obj: ManagedObjectReference;
  properties: ReadonlyMap<string, XmlNode>;
  missing: readonly MissingProperty[];
}

export interface RetrieveResult {
  token: string | undefined;
  objects: ObjectContent[];
}

/** Decodes `<returnval>` of RetrievePropertiesEx / ContinueRetrievePropertiesEx (absent -> empty). */
export function readRetrieveResult(operation: string, returnval: XmlNode | undefined): RetrieveResult {
  if (returnval === undefined || typeof returnval === 'string') return { token: undefined, objects: [] };
  const objects: ObjectContent[] = [];
  for (const node of children(returnval, 'objects')) {
    const obj = readManagedObjectReference(child(node, 'obj'));
    if (obj === undefined) throw new VsphereError(`${operation}: an object without a reference in the result`, { kind: 'InvalidResponse', operation });
    const properties = new Map<string, XmlNode>();
    for (const property of children(node, 'propSet')) {
      const name = childText(property, 'name');
      const value = child(property, 'val');
      if (name !== undefined && value !== undefined) properties.set(name, value);
    }
    const missing: MissingProperty[] = children(node, 'missingSet').map((entry) => {
      // `<fault><fault xsi:type="NotAuthenticated">` (LocalizedMethodFault.fault)
      const faultType = xsiTypeOf(child(child(entry, 'fault'), 'fault'));
      return { path: childText(entry, 'path') ?? '', faultType, kind: kindOfFault(faultType) };
    });
    objects.push({ obj, properties, missing });
  }
  const token = childText(returnval, 'token');
  return { token: token === undefined || token === '' ? undefined : token, objects };
}
