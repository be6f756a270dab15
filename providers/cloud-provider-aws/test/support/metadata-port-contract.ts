/**
 * One contract for the MetadataPort (the instance metadata service), run on FakeMetadata
 * (test/fakes/fake-metadata.ts) and on the IMDS adapter against moto's metadata endpoint
 * (issue 23 point 4): the instance's region, ID and zone, and a service that does not answer.
 */
import { describe, expect, it } from 'vitest';
import type { MetadataPort } from '../../src/ports/metadata-port.js';
import { useContractSide, type AwsContractSide } from './aws-contract-target.js';

export interface MetadataContractWorld {
  /** The metadata service of an instance. */
  port: MetadataPort;
  /** The same port where no metadata service listens. */
  unreachable: MetadataPort;
}

export function describeMetadataPortContract(side: AwsContractSide<MetadataContractWorld>): void {
  describe(`MetadataPort contract (${side.target})`, () => {
    const world = useContractSide(side);

    it("answers the instance's region, its ID and its zone (in the region)", async () => {
      const { port } = world();
      const region = await port.region();
      expect(region).toMatch(/^[a-z]{2}(-[a-z]+)+-\d$/);
      await expect(port.instanceId()).resolves.toMatch(/^i-[0-9a-z]+$/);
      const zone = await port.availabilityZone();
      expect(zone.startsWith(region)).toBe(true);
      expect(zone).toMatch(/^[a-z]{2}(-[a-z]+)+-\d[a-z]$/);
    });

    it('fails every call with an Unavailable AwsApiError naming the endpoint when no metadata service answers', async () => {
      const { unreachable } = world();
      for (const call of [() => unreachable.region(), () => unreachable.instanceId(), () => unreachable.availabilityZone()]) {
        await expect(call()).rejects.toMatchObject({ name: 'AwsApiError', kind: 'Unavailable', message: expect.stringMatching(/instance metadata service at http:\/\/\S+ is not reachable: /) });
      }
    });
  });
}
