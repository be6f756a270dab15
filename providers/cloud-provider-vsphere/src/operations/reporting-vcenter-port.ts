/**
 * A VcenterPort decorator that turns connection-level failures (unreachable vCenter, refused
 * login, missing credentials) into one VsphereProviderError naming the vCenter, and reports
 * each such problem once per change through the ProblemReporter; any successful call clears it.
 * Answers about objects (a VM that does not exist) pass through untouched.
 */
import { VsphereApiError, VsphereProviderError } from '../errors.js';
import type { ObjectRef, TaggingPort, VcenterPort } from '../ports/vcenter-port.js';
import type { ProblemReporter } from './problem-reporter.js';

export function vcenterProblemKey(vcenter: string): string {
  return `vcenter ${JSON.stringify(vcenter)}`;
}

/** Connection-level failures -> VsphereProviderError; other errors are returned unchanged. */
export function classifyVcenterError(vcenter: string, server: string, error: unknown): unknown {
  if (error instanceof VsphereProviderError) return error;
  if (!(error instanceof VsphereApiError)) return error;
  const client = error;
  switch (client.code) {
    case 'InvalidLogin':
      return new VsphereProviderError('InvalidCredentials', `vCenter ${JSON.stringify(vcenter)} (${server}) refused the login: ${client.message}`, { vcenter, cause: error });
    case 'Transport':
    case 'Timeout':
    case 'InvalidResponse':
    case 'NotAuthenticated':
      return new VsphereProviderError('VcenterUnavailable', `vCenter ${JSON.stringify(vcenter)} (${server}) is not available: ${client.message}`, { vcenter, cause: error });
    default:
      return error;
  }
}

export function withProblemReporting(port: VcenterPort, server: string, reporter: ProblemReporter): VcenterPort {
  const key = vcenterProblemKey(port.name);
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const result = await call();
      reporter.resolve(key);
      return result;
    } catch (error) {
      const classified = classifyVcenterError(port.name, server, error);
      if (classified instanceof VsphereProviderError && classified.vcenter === port.name) {
        reporter.report(key, classified.message, { vcenter: port.name, kind: classified.kind });
      } else if (error instanceof VsphereApiError && error.code === 'Aborted') {
        // the caller gave up: not a vCenter problem
      } else {
        reporter.resolve(key);
      }
      throw classified;
    }
  };
  const tagging: TaggingPort = {
    listAttachedTags: (ref: ObjectRef, signal?: AbortSignal) => guard(() => port.tagging.listAttachedTags(ref, signal)),
    getTag: (id, signal) => guard(() => port.tagging.getTag(id, signal)),
    getCategory: (id, signal) => guard(() => port.tagging.getCategory(id, signal)),
    listCategories: (signal) => guard(() => port.tagging.listCategories(signal)),
  };
  return {
    name: port.name,
    tagging,
    listDatacenters: (signal) => guard(() => port.listDatacenters(signal)),
    findVmByUuid: (datacenter, uuid, signal) => guard(() => port.findVmByUuid(datacenter, uuid, signal)),
    findVmsByDnsName: (datacenter, name, signal) => guard(() => port.findVmsByDnsName(datacenter, name, signal)),
    findVmByIp: (datacenter, ip, signal) => guard(() => port.findVmByIp(datacenter, ip, signal)),
    retrieveVms: (refs, signal) => guard(() => port.retrieveVms(refs, signal)),
    ancestors: (ref, signal) => guard(() => port.ancestors(ref, signal)),
    close: () => port.close(),
  };
}
