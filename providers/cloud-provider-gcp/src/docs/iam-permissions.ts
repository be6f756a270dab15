/**
 * The IAM permissions behind every ComputePort method. Typed by the port, so a new method does
 * not compile until its permissions are listed; the reference's permission list is generated
 * from this table.
 */
import type { ComputePort } from '../ports/compute-port.js';

export const COMPUTE_IAM_PERMISSIONS: Readonly<Record<keyof ComputePort, readonly string[]>> = {
  listInstances: ['compute.instances.list'],
  getInstance: ['compute.instances.get'],
  listRoutes: ['compute.routes.list'],
  insertRoute: ['compute.routes.create', 'compute.networks.updatePolicy', 'compute.instances.use'],
  deleteRoute: ['compute.routes.delete'],
  getAddress: ['compute.addresses.get'],
  findAddressByIp: ['compute.addresses.list'],
  insertAddress: ['compute.addresses.create'],
  deleteAddress: ['compute.addresses.delete'],
  getForwardingRule: ['compute.forwardingRules.get'],
  insertForwardingRule: ['compute.forwardingRules.create', 'compute.addresses.use', 'compute.targetPools.use'],
  deleteForwardingRule: ['compute.forwardingRules.delete'],
  getTargetPool: ['compute.targetPools.get'],
  insertTargetPool: ['compute.targetPools.create', 'compute.httpHealthChecks.useReadOnly', 'compute.instances.use'],
  deleteTargetPool: ['compute.targetPools.delete'],
  addTargetPoolInstances: ['compute.targetPools.addInstance', 'compute.instances.use'],
  removeTargetPoolInstances: ['compute.targetPools.removeInstance'],
  getHttpHealthCheck: ['compute.httpHealthChecks.get'],
  insertHttpHealthCheck: ['compute.httpHealthChecks.create'],
  updateHttpHealthCheck: ['compute.httpHealthChecks.update'],
  deleteHttpHealthCheck: ['compute.httpHealthChecks.delete'],
  getFirewall: ['compute.firewalls.get'],
  insertFirewall: ['compute.firewalls.create', 'compute.networks.updatePolicy'],
  patchFirewall: ['compute.firewalls.update', 'compute.networks.updatePolicy'],
  deleteFirewall: ['compute.firewalls.delete', 'compute.networks.updatePolicy'],
};

/** Every permission once, sorted; operations are polled with `compute.{zone,region,global}Operations.get`. */
export function computePermissions(): string[] {
  return [...new Set([...Object.values(COMPUTE_IAM_PERMISSIONS).flat(), 'compute.globalOperations.get', 'compute.regionOperations.get', 'compute.zoneOperations.get'])].sort();
}
