/** An in-memory SOAP endpoint for unit tests: answers by VIM method name, records every call. */
import { readFileSync } from 'node:fs';
import type { HttpFetch, HttpRequestInit } from '../http/http-fetch.js';

export interface RecordedCall {
  method: string;
  url: string;
  cookie: string | undefined;
  soapAction: string | undefined;
  body: string;
}

export interface FakeAnswer {
  status?: number;
  body: string;
  setCookie?: string;
}

/** A handler may answer, or throw to simulate a transport failure. */
export type FakeHandler = (call: RecordedCall, count: number) => FakeAnswer;

export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

export function soapEnvelope(inner: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
}

export function soapResponse(method: string, inner: string): string {
  return soapEnvelope(`<${method}Response xmlns="urn:vim25">${inner}</${method}Response>`);
}

export const loginAnswer = (key = 'session-1'): FakeAnswer => ({
  body: soapResponse('Login', `<returnval><key>${key}</key><userName>VSPHERE.LOCAL\\ccm</userName></returnval>`),
  setCookie: `vmware_soap_session="${key}"; Path=/; HttpOnly; Secure`,
});

export class FakeSoapServer {
  readonly calls: RecordedCall[] = [];
  readonly #handlers = new Map<string, FakeHandler>();
  readonly #counts = new Map<string, number>();

  constructor(handlers: Record<string, FakeHandler> = {}) {
    this.on('RetrieveServiceContent', () => ({ body: fixture('service-content.xml') }));
    this.on('Login', () => loginAnswer());
    this.on('Logout', () => ({ body: soapResponse('Logout', '') }));
    for (const [method, handler] of Object.entries(handlers)) this.on(method, handler);
  }

  on(method: string, handler: FakeHandler): this {
    this.#handlers.set(method, handler);
    return this;
  }

  methods(): string[] {
    return this.calls.map((call) => call.method);
  }

  readonly fetch: HttpFetch = async (url: string, init: HttpRequestInit) => {
    const body = init.body ?? '';
    const method = /<soapenv:Body><(\w+) xmlns="urn:vim25">/.exec(body)?.[1] ?? 'unknown';
    const call: RecordedCall = { method, url, cookie: init.headers['cookie'], soapAction: init.headers['soapaction'], body };
    this.calls.push(call);
    const count = (this.#counts.get(method) ?? 0) + 1;
    this.#counts.set(method, count);
    const handler = this.#handlers.get(method);
    if (handler === undefined) throw new Error(`fake SOAP server: no handler for ${method}`);
    const answer = handler(call, count);
    const headers = new Headers({ 'content-type': 'text/xml; charset=utf-8' });
    if (answer.setCookie !== undefined) headers.append('set-cookie', answer.setCookie);
    return new Response(answer.body, { status: answer.status ?? 200, headers });
  };
}
