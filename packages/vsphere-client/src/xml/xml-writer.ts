/**
 * A tiny XML writer for SOAP request bodies. Functions return already-escaped XML strings, so
 * request builders compose them without a document model. Element order matters to vCenter
 * (XSD sequences): callers list children in schema order.
 */

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => {
    switch (character) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/** `<name attr="...">children</name>`; `children` is XML (already escaped). */
export function xmlElement(name: string, children: string | readonly string[] = '', attributes: Readonly<Record<string, string>> = {}): string {
  const attributeText = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  const content = typeof children === 'string' ? children : children.join('');
  return `<${name}${attributeText}>${content}</${name}>`;
}

/** `<name>text</name>` with `text` escaped. */
export function xmlText(name: string, value: string | number | boolean): string {
  return xmlElement(name, escapeXml(String(value)));
}

/** Omitted when `value` is undefined (optional SOAP parameters). */
export function xmlOptionalText(name: string, value: string | number | boolean | undefined): string {
  return value === undefined ? '' : xmlText(name, value);
}
