import { createHash } from 'node:crypto';

/** A UUID-shaped UID derived from `seed`, so builders give stable UIDs without being told one. */
export function deterministicUid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
