import type { CloudCallOptions } from '@ccm/core/provider';
import type { CallOptions } from './ports/sandbox-cloud-port.js';

/** Core call options -> port call options (only the abort signal crosses). */
export function callOptions(options: CloudCallOptions | undefined): CallOptions | undefined {
  return options?.signal === undefined ? undefined : { signal: options.signal };
}
