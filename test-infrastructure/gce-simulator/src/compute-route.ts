/** One Compute v1 method the simulator serves, named and shaped as in the discovery document. */
export interface ComputeRequest {
  /** Path parameters by their discovery-document names (`project`, `zone`, `instance`, ...). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when the request had none. */
  body: Record<string, unknown> | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ComputeRoute {
  /** The discovery method id, e.g. `compute.instances.insert`. */
  id: string;
  httpMethod: HttpMethod;
  /** The discovery path template relative to `compute/v1/`, e.g. `projects/{project}/zones/{zone}/instances`. */
  path: string;
  handle(request: ComputeRequest): unknown;
}
