/**
 * A client-node `HttpLibrary` that sends each request with undici's `request()` instead of its
 * WHATWG `fetch()`. The request is the one client-node built (URL, method, headers, body, the
 * kubeconfig's dispatcher with its TLS settings and proxy, the abort signal), so what reaches
 * the API server is unchanged; what goes away is fetch's per-request machinery (a `Request`
 * and `Response` object, web streams for both bodies, abort-signal plumbing), which cost about
 * a tenth of the CCM's CPU in a 5,000-node storm.
 *
 * The answer is read whole before it is handed back (the API's answers to writes are small, and
 * client-node always reads them). Failures look as they do with fetch: a request that gets no
 * answer rejects with `TypeError('fetch failed')` whose `cause` is the socket error, an answer
 * whose body breaks off with `TypeError('terminated')`, so error messages stay the same.
 *
 * Used for the writes (`RequestExecutor` picks it for every method but GET): reads, which may be
 * large lists, keep fetch and its transparent gzip.
 */
import { ResponseContext, wrapHttpLibrary, type HttpLibrary, type RequestContext } from '@kubernetes/client-node';
import { request as undiciRequest, type Dispatcher } from 'undici';

type IncomingHeaders = Record<string, string | string[] | undefined>;

/** Headers as fetch's `Headers.forEach` gives them: lower-case names in sorted order, repeated headers joined with `, `. */
function flattenHeaders(headers: IncomingHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) {
    const value = headers[name];
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

async function send(context: RequestContext): Promise<ResponseContext> {
  const body = context.getBody();
  if (body !== undefined && typeof body !== 'string') throw new TypeError(`undici request library: only string bodies are sent, got ${typeof body}`);
  const signal = context.getSignal();
  const dispatcher = context.getDispatcher();
  let answer: Dispatcher.ResponseData;
  try {
    answer = await undiciRequest(context.getUrl(), {
      method: context.getHttpMethod() as Dispatcher.HttpMethod,
      headers: context.getHeaders(),
      ...(body === undefined ? {} : { body }),
      ...(signal === undefined ? {} : { signal }),
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new TypeError('fetch failed', { cause: error });
  }
  let data: Buffer;
  try {
    data = Buffer.from(await answer.body.arrayBuffer());
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new TypeError('terminated', { cause: error });
  }
  return new ResponseContext(answer.statusCode, flattenHeaders(answer.headers), {
    text: () => Promise.resolve(data.toString('utf8')),
    binary: () => Promise.resolve(data),
    stream: () => null,
  });
}

/** One instance serves every request; it holds no state. */
export const undiciRequestLibrary: HttpLibrary = wrapHttpLibrary({ send });
