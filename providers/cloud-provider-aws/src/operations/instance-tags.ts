/**
 * Tags the tagging controller puts on and takes off an instance (upstream `Cloud.TagResource` /
 * `UntagResource`): CreateTags and DeleteTags with the configured key=value pairs.
 */
import { isAwsErrorKind } from '../errors.js';
import type { Ec2Port } from '../ports/ec2-port.js';
import type { Tags } from '../tags.js';

export type TagOutcome = 'tagged' | 'instance-not-found';

export class InstanceTagOperations {
  readonly #ec2: Ec2Port;

  constructor(ec2: Ec2Port) {
    this.#ec2 = ec2;
  }

  /** CreateTags; a missing instance is an outcome (the caller decides whether to retry), other errors throw. */
  async tag(instanceId: string, tags: Tags): Promise<TagOutcome> {
    try {
      await this.#ec2.createTags({ resourceIds: [instanceId], tags });
      return 'tagged';
    } catch (error) {
      if (isAwsErrorKind(error, 'NotFound')) return 'instance-not-found';
      throw error;
    }
  }

  /** DeleteTags of the given key=value pairs; an instance already gone counts as untagged (upstream). */
  async untag(instanceId: string, tags: Tags): Promise<void> {
    // EC2's DeleteTags without tags deletes every tag of the resource, the user's too: never send it.
    if (Object.keys(tags).length === 0) return;
    try {
      await this.#ec2.deleteTags({ resourceIds: [instanceId], tags });
    } catch (error) {
      if (!isAwsErrorKind(error, 'NotFound')) throw error;
    }
  }
}
