import { escapeXml, xmlElement } from '../xml/xml-writer.js';
import { textOf, typeAttributeOf } from '../xml/xml-node.js';

/** A VIM ManagedObjectReference: `{ type: 'VirtualMachine', value: 'vm-42' }`. */
export interface ManagedObjectReference {
  readonly type: string;
  readonly value: string;
}

/** `VirtualMachine:vm-42`, the form used in logs and map keys. */
export function formatManagedObjectReference(reference: ManagedObjectReference): string {
  return `${reference.type}:${reference.value}`;
}

export function sameManagedObject(left: ManagedObjectReference | undefined, right: ManagedObjectReference | undefined): boolean {
  return left !== undefined && right !== undefined && left.type === right.type && left.value === right.value;
}

/** `<name type="VirtualMachine">vm-42</name>`. */
export function managedObjectReferenceXml(name: string, reference: ManagedObjectReference): string {
  return xmlElement(name, escapeXml(reference.value), { type: reference.type });
}

/** Reads `<x type="T">value</x>`; undefined unless both parts are there. */
export function readManagedObjectReference(node: unknown): ManagedObjectReference | undefined {
  const type = typeAttributeOf(node);
  const value = textOf(node);
  if (type === undefined || value === undefined || value === '') return undefined;
  return { type, value };
}
