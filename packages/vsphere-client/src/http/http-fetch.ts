/**
 * The HTTP port both clients use: a `fetch`-shaped function. The default is undici 7's fetch
 * (so an undici `Agent` with our TLS settings can be passed as `dispatcher`); tests inject a fake.
 */
import { fetch as undiciFetch, type Dispatcher } from 'undici';

export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: {
    get(name: string): string | null;
    getSetCookie?(): string[];
  };
  text(): Promise<string>;
}

export type HttpFetch = (url: string, init: HttpRequestInit) => Promise<HttpResponse>;

export const defaultHttpFetch: HttpFetch = (url, init) => undiciFetch(url, init as Parameters<typeof undiciFetch>[1]);

/** Minimal logger the clients accept (the CCM passes its own); never given secrets. */
export interface VsphereClientLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: VsphereClientLogger = { debug: () => undefined, warn: () => undefined };
