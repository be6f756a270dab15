/** Readers over parsed XML nodes; they never throw, missing data reads as undefined. */
import type { XmlNode, XmlObject } from './parse-xml.js';

export function isXmlObject(node: unknown): node is XmlObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/** The first child element `name` (repeated elements are arrays: their first item). */
export function child(node: unknown, name: string): XmlNode | undefined {
  if (!isXmlObject(node)) return undefined;
  const value = node[name];
  if (Array.isArray(value)) return value[0];
  return value;
}

/** Every child element `name`, in document order. */
export function children(node: unknown, name: string): XmlNode[] {
  if (!isXmlObject(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Text content: a text-only element is a string; one with attributes keeps it in `#text`. */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (!isXmlObject(node)) return undefined;
  const text = node['#text'];
  if (typeof text === 'string') return text;
  // An element with attributes and no text (`<val xsi:type="xsd:string"></val>`) is empty text.
  return Object.keys(node).every((key) => key.startsWith('@_')) ? '' : undefined;
}

export function childText(node: unknown, name: string): string | undefined {
  return textOf(child(node, name));
}

export function intOf(node: unknown): number | undefined {
  const text = textOf(node);
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export function boolOf(node: unknown): boolean | undefined {
  const text = textOf(node);
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

/** The `xsi:type` of an element (`ArrayOfGuestNicInfo`, `xsd:string`). */
export function xsiTypeOf(node: unknown): string | undefined {
  if (!isXmlObject(node)) return undefined;
  const type = node['@_xsiType'];
  return typeof type === 'string' ? type : undefined;
}

/** The `type` attribute (ManagedObjectReference type). */
export function typeAttributeOf(node: unknown): string | undefined {
  if (!isXmlObject(node)) return undefined;
  const type = node['@_type'];
  return typeof type === 'string' ? type : undefined;
}

/** Child element names (no attributes, no text). */
export function elementNames(node: unknown): string[] {
  if (!isXmlObject(node)) return [];
  return Object.keys(node).filter((key) => !key.startsWith('@_') && key !== '#text');
}
