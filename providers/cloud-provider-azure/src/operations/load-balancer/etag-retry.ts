/** Runs a read-plan-write step again when ARM answers 412 (the etag read is stale): at most `attempts` times. */
import { isAzureErrorKind } from '../../errors.js';

export const ETAG_RETRY_ATTEMPTS = 5;

export async function withEtagRetry<T>(step: () => Promise<T>, attempts = ETAG_RETRY_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts || !isAzureErrorKind(error, 'PreconditionFailed')) throw error;
    }
  }
}
