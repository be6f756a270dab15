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
  insertAddress: ['compute.addresses.create', 'compute.subnetworks.use'],
  deleteAddress: ['compute.addresses.delete'],
  getForwardingRule: ['compute.forwardingRules.get'],
  insertForwardingRule: ['compute.forwardingRules.create', 'compute.addresses.use', 'compute.targetPools.use', 'compute.regionBackendServices.use', 'compute.subnetworks.use', 'compute.networks.use'],
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
  getHealthCheck: ['compute.healthChecks.get'],
  insertHealthCheck: ['compute.healthChecks.create'],
  updateHealthCheck: ['compute.healthChecks.update'],
  deleteHealthCheck: ['compute.healthChecks.delete'],
  getRegionBackendService: ['compute.regionBackendServices.get'],
  insertRegionBackendService: ['compute.regionBackendServices.create', 'compute.healthChecks.useReadOnly', 'compute.instanceGroups.use'],
  updateRegionBackendService: ['compute.regionBackendServices.update', 'compute.healthChecks.useReadOnly', 'compute.instanceGroups.use'],
  deleteRegionBackendService: ['compute.regionBackendServices.delete'],
  getInstanceGroup: ['compute.instanceGroups.get'],
  insertInstanceGroup: ['compute.instanceGroups.create'],
  deleteInstanceGroup: ['compute.instanceGroups.delete'],
  listInstanceGroupInstances: ['compute.instanceGroups.list'],
  addInstanceGroupInstances: ['compute.instanceGroups.update', 'compute.instances.use'],
  removeInstanceGroupInstances: ['compute.instanceGroups.update', 'compute.instances.use'],
  listZones: ['compute.zones.list'],
  getFirewall: ['compute.firewalls.get'],
  insertFirewall: ['compute.firewalls.create', 'compute.networks.updatePolicy'],
  patchFirewall: ['compute.firewalls.update', 'compute.networks.updatePolicy'],
  deleteFirewall: ['compute.firewalls.delete', 'compute.networks.updatePolicy'],
};

/** Every permission once, sorted; operations are polled with `compute.{zone,region,global}Operations.get`. */
export function computePermissions(): string[] {
  return [...new Set([...Object.values(COMPUTE_IAM_PERMISSIONS).flat(), 'compute.globalOperations.get', 'compute.regionOperations.get', 'compute.zoneOperations.get'])].sort();
}
