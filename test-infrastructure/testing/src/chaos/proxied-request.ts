/** One HTTP request as the fault-injecting proxy sees it (same shape as the benchmark's `CloudRequest`). */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body as text ('' without one). */
  body: string;
}
