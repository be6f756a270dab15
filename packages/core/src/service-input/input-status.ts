/**
 * The one status vocabulary of every provider's Service annotations and config keys, and how the
 * docs spell it.
 */

/**
 * - `supported`: read and acted on (as upstream, unless the note says otherwise).
 * - `accepted-and-ignored`: accepted without error, never acted on; the reason says why.
 * - `not-supported`: upstream reads it, this provider does not offer what it asks for; the
 *   reason says why (and what to use instead).
 */
export type InputStatus = 'supported' | 'accepted-and-ignored' | 'not-supported';

export const INPUT_STATUSES: readonly InputStatus[] = ['supported', 'accepted-and-ignored', 'not-supported'];

/** The status as the docs print it: `supported`, `accepted and ignored: <reason>`, `not supported: <reason>`. */
export function describeInputStatus(status: InputStatus, reason?: string): string {
  const words = status.replace(/-/g, ' ');
  return reason === undefined || reason === '' ? words : `${words}: ${reason}`;
}

/** The paragraph every reference page prints above its tables. */
export const INPUT_STATUS_LEGEND =
  '**Status** is one of *supported* (as upstream, or as the note says), *accepted and ignored* (no error, no effect; the reason says why) or *not supported* (upstream reads it, this provider does not offer it; the reason says why).';
