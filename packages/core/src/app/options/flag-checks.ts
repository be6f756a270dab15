/**
 * Reusable `check`s for flag declarations: range and format problems of one flag's value are
 * found while parsing, so they surface as a `FlagError` naming the flag (exit code 2).
 */
import { parseClusterCidrFlag } from './cluster-cidrs.js';
import { formatGoDuration } from '../../util/go-duration.js';

/** A duration that must be greater than zero (a period or an interval). */
export const positiveDuration = (value: number): string | undefined =>
  value > 0 ? undefined : `must be greater than zero (got ${formatGoDuration(value)})`;

/** A duration that may be zero but not negative. */
export const nonNegativeDuration = (value: number): string | undefined =>
  value >= 0 ? undefined : `cannot be negative (got ${formatGoDuration(value)})`;

/** A count that must be at least 1 (a number of workers). */
export const positiveCount = (value: number): string | undefined => (value > 0 ? undefined : `must be greater than 0 (got ${value})`);

/** A TCP port, 0 meaning "do not serve" (apiserver `SecureServingOptions.Validate`). */
export const portOrZero = (value: number): string | undefined =>
  value >= 0 && value <= 65_535 ? undefined : `${value} must be between 0 and 65535, inclusive. 0 for turning off secure port`;

/** `--cluster-cidr`: empty, or one CIDR, or a dual-stack pair (the route controller's rules). */
export const clusterCidrValue = (value: string): string | undefined => {
  if (value.trim() === '') return undefined;
  const parsed = parseClusterCidrFlag(value);
  return parsed.ok ? undefined : parsed.error;
};
