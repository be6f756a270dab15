/**
 * The vSphere provider's own stage of the port pipeline: connection-level failures (unreachable
 * vCenter, refused login, missing credentials) become one VsphereProviderError naming the
 * vCenter, and each such problem is reported once per change through the ProblemReporter; any
 * successful call clears it. Answers about objects (a VM that does not exist) pass through
 * untouched. It sits outside the retries, so it sees each call's final outcome.
 */
import type { PortAround } from '@ccm/core/cloud';
import { VsphereApiError, VsphereProviderError } from '../errors.js';
import type { ProblemReporter } from './problem-reporter.js';

export function vcenterProblemKey(vcenter: string): string {
  return `vcenter ${JSON.stringify(vcenter)}`;
}

/** Connection-level failures -> VsphereProviderError; other errors are returned unchanged. */
export function classifyVcenterError(vcenter: string, server: string, error: unknown): unknown {
  if (error instanceof VsphereProviderError) return error;
  if (!(error instanceof VsphereApiError)) return error;
  switch (error.code) {
    case 'InvalidLogin':
      return new VsphereProviderError('InvalidCredentials', `vCenter ${JSON.stringify(vcenter)} (${server}) refused the login: ${error.message}`, { vcenter, cause: error });
    case 'Transport':
    case 'Timeout':
    case 'InvalidResponse':
    case 'NotAuthenticated':
      return new VsphereProviderError('VcenterUnavailable', `vCenter ${JSON.stringify(vcenter)} (${server}) is not available: ${error.message}`, { vcenter, cause: error });
    default:
      return error;
  }
}

/** The stage for vCenter `vcenter` (its config name) at `server`. */
export function reportVcenterProblems(vcenter: string, server: string, reporter: ProblemReporter): PortAround {
  const key = vcenterProblemKey(vcenter);
  return async (_call, invoke) => {
    try {
      const result = await invoke();
      reporter.resolve(key);
      return result;
    } catch (error) {
      const classified = classifyVcenterError(vcenter, server, error);
      if (classified instanceof VsphereProviderError && classified.vcenter === vcenter) {
        reporter.report(key, classified.message, { vcenter, kind: classified.kind });
      } else if (error instanceof VsphereApiError && error.code === 'Aborted') {
        // the caller gave up: not a vCenter problem
      } else {
        reporter.resolve(key);
      }
      throw classified;
    }
  };
}
