/** Splits ARM resource IDs into the segments the SDK methods take. */
export interface ArmResourceId {
  subscriptionId: string;
  resourceGroup: string;
  /** `type/name` pairs after the provider namespace, e.g. [['virtualMachineScaleSets','vmss'], ['virtualMachines','0']]. */
  segments: Array<[string, string]>;
}

export function parseArmResourceId(id: string): ArmResourceId | undefined {
  const parts = id.split('/').filter((part) => part !== '');
  if (parts.length < 6 || parts[0]?.toLowerCase() !== 'subscriptions' || parts[2]?.toLowerCase() !== 'resourcegroups' || parts[4]?.toLowerCase() !== 'providers') return undefined;
  const rest = parts.slice(6);
  if (rest.length === 0 || rest.length % 2 !== 0) return undefined;
  const segments: Array<[string, string]> = [];
  for (let index = 0; index < rest.length; index += 2) segments.push([rest[index] as string, rest[index + 1] as string]);
  return { subscriptionId: parts[1] as string, resourceGroup: parts[3] as string, segments };
}
