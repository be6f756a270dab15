import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { completeFromMetadata } from '../../src/config/complete-from-metadata.js';
import { readGceCloudConfig } from '../../src/config/read-gce-cloud-config.js';
import { FakeMetadata } from '../fakes/fake-metadata.js';

const fakeMetadata = (values: Record<string, string>): FakeMetadata => new FakeMetadata(values);

const SERVER = {
  'project/project-id': 'meta-project',
  'instance/zone': 'projects/100000000042/zones/europe-west1-c',
  'instance/network-interfaces/0/network': 'projects/100000000042/networks/meta-net',
};

describe('completeFromMetadata (upstream defaults from the metadata server)', () => {
  it('does not ask the server when gce.conf sets project-id, local-zone and network-name', async () => {
    const metadata = fakeMetadata(SERVER);
    const { config } = readGceCloudConfig('[global]\nproject-id = p1\nlocal-zone = us-central1-b\nnetwork-name = net\n');
    expect(await completeFromMetadata(config, metadata, 'gce.conf')).toBe(config);
    expect(metadata.asked).toEqual([]);
  });

  it('takes project and zone together, the network, and derives region and network project', async () => {
    const metadata = fakeMetadata(SERVER);
    const { config } = readGceCloudConfig('[global]\n');
    const complete = await completeFromMetadata(config, metadata, 'gce.conf');
    expect(complete).toMatchObject({ projectId: 'meta-project', networkProjectId: 'meta-project', localZone: 'europe-west1-c', region: 'europe-west1', networkName: 'meta-net' });
    expect(metadata.asked.sort()).toEqual(['instance/network-interfaces/0/network', 'instance/zone', 'project/project-id']);
  });

  it('keeps what the file sets and asks only for the rest (network only; project with a shared-VPC network project)', async () => {
    const networkOnly = fakeMetadata(SERVER);
    const fromFile = readGceCloudConfig('[global]\nproject-id = p1\nlocal-zone = us-central1-b\n').config;
    expect(await completeFromMetadata(fromFile, networkOnly, 'gce.conf')).toMatchObject({ projectId: 'p1', localZone: 'us-central1-b', networkName: 'meta-net' });
    expect(networkOnly.asked).toEqual(['instance/network-interfaces/0/network']);

    const zoneFromFile = readGceCloudConfig('[global]\nlocal-zone = us-east1-d\nnetwork-name = n\nnetwork-project-id = host\n').config;
    expect(await completeFromMetadata(zoneFromFile, fakeMetadata(SERVER), 'gce.conf')).toMatchObject({ projectId: 'meta-project', networkProjectId: 'host', localZone: 'us-east1-d', region: 'us-east1' });
  });

  it('stops with one message naming the file, the keys to set and the server when it cannot answer', async () => {
    const { config } = readGceCloudConfig('[global]\nnetwork-name = net\n');
    const failure = await completeFromMetadata(config, fakeMetadata({}), '/etc/kubernetes/gce.conf').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CloudConfigError);
    expect((failure as Error).message).toBe(
      '/etc/kubernetes/gce.conf: project-id, local-zone are not set, and the metadata server (metadata.test) cannot supply them: metadata server: cannot read project/project-id: not defined; set them in [global]',
    );
  });
});
