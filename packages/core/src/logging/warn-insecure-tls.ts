/**
 * The Warning line every provider writes at start-up when a setting turns certificate
 * verification off (vSphere `insecure-flag`, OpenStack `tls-insecure` or clouds.yaml
 * `verify: false`, ...): the connections it names can be intercepted, and operators grep for this.
 */
import type { Logger } from './logger.js';

export interface InsecureTlsSetting {
  /** What is reached without verification: `vCenter "vc1"`, `OpenStack (https://keystone:5000/v3)`. */
  what: string;
  /** The setting that turned it off, as the operator wrote it: `insecure-flag`. */
  setting: string;
}

export const INSECURE_TLS_MESSAGE = 'TLS certificate verification is turned off; the connection can be intercepted';

export function warnInsecureTls(logger: Logger, insecure: InsecureTlsSetting): void {
  logger.warn(INSECURE_TLS_MESSAGE, { target: insecure.what, setting: insecure.setting });
}
