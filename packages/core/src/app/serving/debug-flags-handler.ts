/**
 * `/debug/flags/v` (upstream `routes.DebugFlags{}.Install(mux, "v", StringFlagPutHandler(logs.GlogSetter))`,
 * served with `--profiling`): PUT with the new verbosity as the body sets `--v` of the running
 * process and answers `successfully set klog.logging.verbosity to <v>`; a body that is not a
 * 32-bit integer (Go's `strconv.ParseInt(body, 10, 32)`, so no spaces or line breaks) answers 400
 * `failed set klog.logging.verbosity <body>: <reason>`. GET answers the current verbosity (upstream
 * answers 406 to anything but PUT; reading it back is ours); other methods answer 406
 * `unsupported http method`. `/debug/flags` and `/debug/flags/` list the flags (upstream's index).
 * Answers are `text/plain` with a trailing line break (upstream `writePlainText`). Authorization
 * is the secure port's, as for `/metrics`: PUT needs the `put` verb on the path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendResponse as send } from './send-response.js';

/** The running verbosity (`--v`). */
export interface VerbosityControl {
  verbosity(): number;
  setVerbosity(level: number): void;
}

const MAX_BODY_BYTES = 64;
const INT32 = /^[+-]?\d+$/;

/** Handles `/debug/flags*`; false when the path is not one of them. */
export async function handleDebugFlags(path: string, request: IncomingMessage, response: ServerResponse, control: VerbosityControl): Promise<boolean> {
  if (path === '/debug/flags' || path === '/debug/flags/') {
    send(response, 200, 'text/html; charset=utf-8', '<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n<table>\n\n<tr>v<br>\n\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n');
    return true;
  }
  if (path !== '/debug/flags/v') return false;
  if (request.method === 'GET' || request.method === 'HEAD') {
    send(response, 200, 'text/plain', `${control.verbosity()}\n`);
    return true;
  }
  if (request.method !== 'PUT') {
    send(response, 406, 'text/plain', 'unsupported http method\n');
    return true;
  }
  const body = await readBody(request, MAX_BODY_BYTES);
  if (body === undefined) {
    send(response, 400, 'text/plain', `error reading request body: longer than ${MAX_BODY_BYTES} bytes\n`);
    return true;
  }
  const problem = parseGoInt32Problem(body);
  if (problem !== undefined) {
    send(response, 400, 'text/plain', `failed set klog.logging.verbosity ${body}: ${problem}\n`);
    return true;
  }
  control.setVerbosity(Number(body));
  send(response, 200, 'text/plain', `successfully set klog.logging.verbosity to ${body}\n`);
  return true;
}

/** Go's `strconv.ParseInt(value, 10, 32)` error text, or undefined when it parses. */
export function parseGoInt32Problem(value: string): string | undefined {
  if (!INT32.test(value)) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`;
  const number = Number(value);
  if (number < -2_147_483_648 || number > 2_147_483_647) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`;
  return undefined;
}

function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
