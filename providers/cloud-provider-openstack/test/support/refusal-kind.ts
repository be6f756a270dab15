/**
 * What a port call that should be refused ended in, for the port contracts: the provider's error
 * kind (`NotFound`, `Invalid`, `Conflict`...), or `accepted` when the call succeeded. Compared with
 * `toBe`, a failing case names what the side really answered.
 */
import { asOpenStackApiError, type OpenStackApiErrorKind } from '../../src/errors.js';

export async function refusalKind(call: Promise<unknown>): Promise<OpenStackApiErrorKind | 'accepted' | 'not an OpenStackApiError'> {
  try {
    await call;
    return 'accepted';
  } catch (error) {
    return asOpenStackApiError(error)?.kind ?? 'not an OpenStackApiError';
  }
}

/** A name one character over the 255 Neutron and Octavia accept. */
export const NAME_OVER_255 = 'n'.repeat(256);

/** A well-formed UUID nothing has. */
export const UNKNOWN_UUID = '6f1c2a3b-0000-4000-8000-00000000dead';
