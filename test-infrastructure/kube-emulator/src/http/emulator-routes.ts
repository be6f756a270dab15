/**
 * The private control API under /__emulator, so a test can steer an emulator running in another
 * process: fault injection and request counters. Not counted, never faulted.
 *
 *   GET    /__emulator/faults                          current fault state
 *   POST   /__emulator/faults/fail                     {count, status?, method?, path?, retryAfterSeconds?, message?}
 *   POST   /__emulator/faults/latency                  {milliseconds, method?, path?}
 *   POST   /__emulator/faults/drop-watches             {mode?: "end" | "reset"} -> {dropped}
 *   POST   /__emulator/faults/compact-history          -> {resourceVersion}
 *   POST   /__emulator/faults/expired-watch-response   {mode: "error-event" | "http-status"}
 *   POST   /__emulator/faults/reset   (or DELETE /__emulator/faults)
 *   GET    /__emulator/request-counts
 *   POST   /__emulator/request-counts/reset
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusErrors } from '../api/status-error.js';
import type { FaultInjector, InjectedFailureStatus } from '../faults/fault-injector.js';
import type { RequestCounter } from '../metrics/request-counter.js';
import { isPlainObject, type JsonMap } from '../util/json.js';
import { parseJsonBody, readBody } from './request-body.js';
import { writeJson } from './response.js';

export const emulatorPathPrefix = '/__emulator/';

async function jsonBody(request: IncomingMessage): Promise<JsonMap> {
  const text = await readBody(request);
  if (text.trim() === '') return {};
  const body = parseJsonBody(text);
  if (!isPlainObject(body)) throw statusErrors.badRequest('the body must be a JSON object');
  return body;
}

function optionalString(body: JsonMap, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw statusErrors.badRequest(`${key} must be a string`);
  return value;
}

function optionalPattern(body: JsonMap): RegExp | undefined {
  const source = optionalString(body, 'path');
  if (source === undefined) return undefined;
  try {
    return new RegExp(source);
  } catch (error) {
    throw statusErrors.badRequest(`path is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function rangeChecked<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof RangeError) throw statusErrors.badRequest(error.message);
    throw error;
  }
}

export async function handleEmulatorRoute(pathname: string, request: IncomingMessage, response: ServerResponse, faults: FaultInjector, counter: RequestCounter): Promise<void> {
  const method = request.method ?? 'GET';
  const route = `${method} ${pathname.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /__emulator/faults':
      writeJson(response, 200, faults.state());
      return;
    case 'POST /__emulator/faults/fail': {
      const body = await jsonBody(request);
      const count = body['count'] ?? 1;
      if (typeof count !== 'number') throw statusErrors.badRequest('count must be a number');
      const status = body['status'];
      if (status !== undefined && typeof status !== 'number') throw statusErrors.badRequest('status must be a number');
      const retryAfterSeconds = body['retryAfterSeconds'];
      if (retryAfterSeconds !== undefined && typeof retryAfterSeconds !== 'number') throw statusErrors.badRequest('retryAfterSeconds must be a number');
      rangeChecked(() =>
        faults.failNext(count, {
          ...(status !== undefined ? { status: status as InjectedFailureStatus } : {}),
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
          ...(optionalString(body, 'method') ? { method: optionalString(body, 'method') } : {}),
          ...(optionalPattern(body) ? { path: optionalPattern(body) } : {}),
          ...(optionalString(body, 'message') ? { message: optionalString(body, 'message') } : {}),
        }),
      );
      writeJson(response, 200, faults.state());
      return;
    }
    case 'POST /__emulator/faults/latency': {
      const body = await jsonBody(request);
      const milliseconds = body['milliseconds'];
      if (typeof milliseconds !== 'number') throw statusErrors.badRequest('milliseconds must be a number');
      const methodFilter = optionalString(body, 'method');
      const path = optionalPattern(body);
      rangeChecked(() => faults.addLatency(milliseconds, { ...(methodFilter ? { method: methodFilter } : {}), ...(path ? { path } : {}) }));
      writeJson(response, 200, faults.state());
      return;
    }
    case 'POST /__emulator/faults/drop-watches': {
      const body = await jsonBody(request);
      const mode = body['mode'] ?? 'end';
      if (mode !== 'end' && mode !== 'reset') throw statusErrors.badRequest('mode must be "end" or "reset"');
      writeJson(response, 200, { dropped: faults.dropWatches(mode) });
      return;
    }
    case 'POST /__emulator/faults/compact-history':
      writeJson(response, 200, { resourceVersion: String(faults.compactHistory()) });
      return;
    case 'POST /__emulator/faults/expired-watch-response': {
      const body = await jsonBody(request);
      const mode = body['mode'];
      if (mode !== 'error-event' && mode !== 'http-status') throw statusErrors.badRequest('mode must be "error-event" or "http-status"');
      faults.setExpiredWatchResponse(mode);
      writeJson(response, 200, faults.state());
      return;
    }
    case 'POST /__emulator/faults/reset':
    case 'DELETE /__emulator/faults':
      faults.reset();
      writeJson(response, 200, faults.state());
      return;
    case 'GET /__emulator/request-counts':
      writeJson(response, 200, counter.snapshot());
      return;
    case 'POST /__emulator/request-counts/reset':
      counter.reset();
      writeJson(response, 200, counter.snapshot());
      return;
    default:
      throw statusErrors.routeNotFound();
  }
}
