import { KubeStatusError, type KubeStatus } from '../api/status-error.js';

/** Runs `action`, expecting it to fail with a KubeStatusError; returns the Status. */
export function statusOf(action: () => unknown): KubeStatus {
  try {
    action();
  } catch (error) {
    if (error instanceof KubeStatusError) return error.status;
    throw error;
  }
  throw new Error('expected a KubeStatusError, but the call succeeded');
}
