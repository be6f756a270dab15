/**
 * VIM SOAP over HTTP: posts one envelope to `<server>/sdk`, keeps the `vmware_soap_session`
 * cookie, and turns the answer into the `<Method>Response` element or a typed `VsphereError`
 * (SOAP faults keep their VIM type). No retries and no session logic here: the VIM client
 * decides those.
 */
import type { Dispatcher } from 'undici';
import type { HttpFetch } from '../http/http-fetch.js';
import { sendRequest } from '../http/send-request.js';
import { VsphereError, kindOfFault } from '../vsphere-error.js';
import { formatManagedObjectReference, readManagedObjectReference } from '../vim/managed-object-reference.js';
import { parseXml, type XmlObject } from '../xml/parse-xml.js';
import { child, childText, elementNames, isXmlObject, xsiTypeOf } from '../xml/xml-node.js';
import { soapRequestEnvelope } from './soap-envelope.js';

export const SOAP_SESSION_COOKIE = 'vmware_soap_session';

export interface SoapTransportOptions {
  /** The SOAP endpoint, `https://vcenter.example.com:443/sdk`. */
  endpoint: string;
  fetch: HttpFetch;
  dispatcher?: Dispatcher | undefined;
  requestTimeoutMs: number;
  userAgent: string;
}

export class SoapTransport {
  readonly #options: SoapTransportOptions;
  #sessionCookie: string | undefined;
  /** `urn:vim25/<apiVersion>`; updated once the service content is known. */
  soapAction = 'urn:vim25/6.5';

  constructor(options: SoapTransportOptions) {
    this.#options = options;
  }

  get endpoint(): string {
    return this.#options.endpoint;
  }

  /** The session cookie value (secret: never log it). */
  get sessionCookie(): string | undefined {
    return this.#sessionCookie;
  }

  clearSession(): void {
    this.#sessionCookie = undefined;
  }

  /** Sends `<method>` with its parameters (XML in schema order); returns `<method>Response`. */
  async call(method: string, parametersXml: string, signal?: AbortSignal): Promise<XmlObject> {
    const headers: Record<string, string> = {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: this.soapAction,
      'user-agent': this.#options.userAgent,
    };
    if (this.#sessionCookie !== undefined) headers['cookie'] = `${SOAP_SESSION_COOKIE}=${this.#sessionCookie}`;
    const { response, body } = await sendRequest({
      fetch: this.#options.fetch,
      url: this.#options.endpoint,
      init: { method: 'POST', headers, body: soapRequestEnvelope(method, parametersXml), ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}) },
      operation: method,
      timeoutMs: this.#options.requestTimeoutMs,
      signal,
    });
    this.#rememberCookie(response.headers);
    return readSoapResponse(method, response.status, body);
  }

  #rememberCookie(headers: { get(name: string): string | null; getSetCookie?(): string[] }): void {
    const cookies = headers.getSetCookie?.() ?? splitSetCookie(headers.get('set-cookie'));
    for (const cookie of cookies) {
      const value = readCookieValue(cookie, SOAP_SESSION_COOKIE);
      if (value !== undefined) this.#sessionCookie = value;
    }
  }
}

/** Parses a SOAP answer: the `<method>Response` element, or throws the fault as `VsphereError`. */
export function readSoapResponse(method: string, status: number, body: string): XmlObject {
  let document: XmlObject;
  try {
    document = parseXml(body);
  } catch (error) {
    throw new VsphereError(`${method}: HTTP ${status} with a body that is not XML`, { kind: 'InvalidResponse', operation: method, httpStatus: status, cause: error });
  }
  const soapBody = child(child(document, 'Envelope'), 'Body');
  if (!isXmlObject(soapBody)) {
    throw new VsphereError(`${method}: HTTP ${status} without a SOAP envelope${status === 200 ? '' : ` (${summarize(body)})`}`, {
      kind: 'InvalidResponse',
      operation: method,
      httpStatus: status,
    });
  }
  const fault = child(soapBody, 'Fault');
  if (fault !== undefined) throw faultError(method, status, fault);
  const result = child(soapBody, `${method}Response`);
  if (result === undefined) {
    throw new VsphereError(`${method}: HTTP ${status} without a ${method}Response element`, { kind: 'InvalidResponse', operation: method, httpStatus: status });
  }
  // `<XResponse xmlns="urn:vim25"></XResponse>` (no returnval) parses as text; treat as empty.
  return isXmlObject(result) ? result : {};
}

/** A SOAP fault as `VsphereError`: kind from the VIM fault type in `detail`. */
export function faultError(method: string, status: number, fault: unknown): VsphereError {
  const faultString = childText(fault, 'faultstring') ?? '';
  const detail = child(fault, 'detail');
  const detailName = elementNames(detail)[0];
  const detailNode = detailName === undefined ? undefined : child(detail, detailName);
  const faultType = xsiTypeOf(detailNode) ?? (detailName?.endsWith('Fault') ? detailName.slice(0, -'Fault'.length) : detailName);
  const objectReference = readManagedObjectReference(child(detailNode, 'obj')) ?? readManagedObjectReference(child(detailNode, 'object'));
  const object = objectReference === undefined ? undefined : formatManagedObjectReference(objectReference);
  const kind = kindOfFault(faultType);
  let description = faultType ?? 'SOAP fault';
  if (faultString !== '') description += `: ${faultString}`;
  if (object !== undefined) description += ` (${object})`;
  return new VsphereError(`${method}: ${description}`, {
    kind,
    operation: method,
    httpStatus: status,
    ...(faultType === undefined ? {} : { faultType }),
    ...(object === undefined ? {} : { object }),
  });
}

export function readCookieValue(setCookie: string, name: string): string | undefined {
  const pair = setCookie.split(';', 1)[0] ?? '';
  const equals = pair.indexOf('=');
  if (equals < 0 || pair.slice(0, equals).trim() !== name) return undefined;
  let value = pair.slice(equals + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value === '' ? undefined : value;
}

/** Fallback for header objects without `getSetCookie`: split a folded header on cookie starts. */
function splitSetCookie(header: string | null): string[] {
  if (header === null || header === '') return [];
  return header.split(/,(?=\s*[A-Za-z0-9_-]+=)/);
}

function summarize(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > 120 ? `${text.slice(0, 117)}...` : text || 'empty body';
}
