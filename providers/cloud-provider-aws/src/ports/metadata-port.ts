/** The instance metadata service (IMDSv2), used only when the cloud config leaves gaps. */
import type { CallOptions } from '@ccm/core/cloud';

export interface MetadataPort {
  /** Region of the instance identity document. */
  region(options?: CallOptions): Promise<string>;
  instanceId(options?: CallOptions): Promise<string>;
  availabilityZone(options?: CallOptions): Promise<string>;
}
