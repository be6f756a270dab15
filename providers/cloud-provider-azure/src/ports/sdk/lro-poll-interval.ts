/** How often the SDKs poll a long-running operation (ARM's Retry-After wins when it sends one). */
export const LRO_POLL_INTERVAL_MS = 500;
