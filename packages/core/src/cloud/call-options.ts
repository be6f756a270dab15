/** Options every port call accepts: the caller's signal, handed to the SDK and to a coalescer's `load`. */
export interface CallOptions {
  signal?: AbortSignal;
}
