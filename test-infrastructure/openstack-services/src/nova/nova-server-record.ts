/** What the stand-in keeps of a server (in memory; addresses are read from Neutron each time). */
export type VmState = 'active' | 'stopped';

export interface ServerRecord {
  id: string;
  name: string;
  projectId: string;
  userId: string;
  flavorId: string;
  /** '' when booted from a volume (no imageRef). */
  imageId: string;
  availabilityZone: string;
  /** The compute host (the name Neutron's test mechanism driver binds ports on). */
  host: string;
  vmState: VmState;
  created: Date;
  updated: Date;
  launchedAt: Date;
  metadata: Record<string, string>;
  description: string | null;
  keyName: string | null;
  securityGroups: string[];
  accessIPv4: string;
  accessIPv6: string;
  tags: string[];
  reservationId: string;
  /** `instance-0000000a` */
  instanceName: string;
  userData: string | null;
  /** Ports the stand-in created for the server (deleted with it); ports passed in are only detached. */
  createdPortIds: string[];
  /** Every port attached at create (created or passed in). */
  portIds: string[];
}

/** Nova's `status` for a VM state. */
export function serverStatus(record: ServerRecord): 'ACTIVE' | 'SHUTOFF' {
  return record.vmState === 'active' ? 'ACTIVE' : 'SHUTOFF';
}

/** Nova's power_state numbers: 1 RUNNING, 4 SHUTDOWN. */
export function powerState(record: ServerRecord): number {
  return record.vmState === 'active' ? 1 : 4;
}
