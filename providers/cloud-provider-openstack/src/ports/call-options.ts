/** Options every port call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}
