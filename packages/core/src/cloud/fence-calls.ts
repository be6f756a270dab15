/**
 * The fence stage: every attempt checks the leadership fence of its async context right before
 * it is sent (see leadership-fence.ts). `composeCloudPort` places it just outside the observer,
 * inside the budget and retries, so a wait for a token or a backoff cannot carry a call past the
 * leader's deadline.
 */
import { activeLeadershipFence } from './leadership-fence.js';
import type { PortAround } from './wrap-port.js';

export function fenceCalls(): PortAround {
  return (call, invoke) => {
    try {
      activeLeadershipFence()?.check(call.operation);
    } catch (error) {
      return Promise.reject(error);
    }
    return invoke();
  };
}
