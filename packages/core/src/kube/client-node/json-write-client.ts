/**
 * The hot writes (node update and patches, event create and patch) without client-node's generated
 * API: the same request client-node builds (the kubeconfig's server, credentials, impersonation
 * and dispatcher from `applySecurityAuthentication`, `Accept: application/json, * /*;q=0.8`, the
 * Content-Type, our User-Agent, the body serialized from the model as client-node serializes it),
 * sent with undici's `request()`, the answer decoded by core's wire format (`fromWire`) instead
 * of client-node's `ObjectSerializer`, and the same `ApiException`s for answers other than 2xx
 * (401 without a body, anything else "Unknown API Status Code!" with the body text), so the
 * request executor's retries and error translation see exactly what they saw before.
 *
 * In a 5,000-node storm the generated API's per-call pipeline and its `ObjectSerializer` (the
 * two node writes and the event of each node) were about a tenth of the CCM's CPU.
 * `json-write-client.test.ts` checks each call against client-node's, request and result.
 */
import { ApiException, HttpMethod, RequestContext, type KubeConfig } from '@kubernetes/client-node';
import type { JsonValue } from '../json-value.js';
import { fromWire, toWireJson, type WireModel } from '../wire-format.js';
import { undiciRequestLibrary } from './undici-request-library.js';

const ACCEPT = 'application/json, */*;q=0.8';
const JSON_CONTENT_TYPE = 'application/json';

export interface JsonWrite {
  method: 'PUT' | 'PATCH' | 'POST';
  /** `/api/v1/nodes/n1`, path segments already encoded. */
  path: string;
  /** The body: a model serialized as `bodyModel`, or (patches) any JSON value sent as is. */
  body: unknown;
  /** Serialize `body` as this model (client-node's `ObjectSerializer.serialize(body, model)`); patches have none. */
  bodyModel?: WireModel;
  /** Default `application/json`. */
  contentType?: string;
  /** The model of the answer. */
  answerModel: WireModel;
}

/** client-node's `ObjectSerializer.parse` for the Content-Type of an answer. */
function parseAnswer(text: string, contentType: string | undefined): JsonValue {
  if (contentType === undefined) throw new Error('Cannot parse content. No Content-Type defined.');
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const [type = '', subtype = ''] = mediaType.split('/');
  if (type === 'text') return text;
  if (type === 'application' && subtype.split('+').includes('json')) return JSON.parse(text) as JsonValue;
  throw new Error(`The mediaType ${mediaType} is not supported by ObjectSerializer.parse.`);
}

export class JsonWriteClient {
  readonly #kubeConfig: KubeConfig;
  readonly #server: string;
  readonly #userAgent: string;

  constructor(kubeConfig: KubeConfig, userAgent: string) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    this.#kubeConfig = kubeConfig;
    this.#server = cluster.server;
    this.#userAgent = userAgent;
  }

  async send<T>(write: JsonWrite): Promise<T> {
    const context = new RequestContext(this.#server + write.path, HttpMethod[write.method]);
    context.setHeaderParam('Accept', ACCEPT);
    context.setHeaderParam('Content-Type', JSON_CONTENT_TYPE);
    context.setBody(write.bodyModel === undefined ? JSON.stringify(write.body) : toWireJson(write.body, write.bodyModel));
    await this.#kubeConfig.applySecurityAuthentication(context);
    context.setHeaderParam('User-Agent', this.#userAgent);
    if (write.contentType !== undefined) context.setHeaderParam('Content-Type', write.contentType);
    const answer = await undiciRequestLibrary.send(context).toPromise();
    const code = answer.httpStatusCode;
    if (code >= 200 && code <= 299) return fromWire<T>(parseAnswer(await answer.body.text(), answer.headers['content-type']), write.answerModel);
    if (code === 401) throw new ApiException(code, 'Unauthorized', undefined, answer.headers);
    throw new ApiException(code, 'Unknown API Status Code!', await answer.body.text(), answer.headers);
  }
}
