/**
 * XML -> plain objects for SOAP responses (fast-xml-parser). Tag names lose their namespace
 * prefix (`soapenv:Body` -> `Body`). Attributes keep plain names (`@_type` is a
 * ManagedObjectReference's type) except the namespaced `xsi:type` (any prefix), which becomes
 * `@_xsiType`: both can sit on one element (`<val xsi:type="ManagedObjectReference"
 * type="HostSystem">`), so dropping prefixes blindly would make them collide. Values stay
 * strings; decoders convert them.
 */
import { XMLParser } from 'fast-xml-parser';

/** A parsed element: a string for text-only elements, else an object of children/attributes. */
export type XmlNode = string | XmlObject;
export interface XmlObject {
  [key: string]: XmlNode | XmlNode[] | undefined;
}

/** Elements that may repeat, always parsed as arrays (so one item and many look alike). */
const REPEATED_ELEMENTS = new Set([
  'returnval',
  'objects',
  'propSet',
  'missingSet',
  'GuestNicInfo',
  'OptionValue',
  'ManagedObjectReference',
  'string',
  'ipAddress',
  'pathSet',
  'objectSet',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: false,
  transformTagName: (name) => localName(name),
  // Receives the prefixed name (`@_xsi:type`).
  transformAttributeName: (name) => (name.includes(':') && name.endsWith(':type') ? '@_xsiType' : name),
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  textNodeName: '#text',
  isArray: (name) => REPEATED_ELEMENTS.has(name),
});

export function parseXml(text: string): XmlObject {
  return parser.parse(text) as XmlObject;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}
