import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGceSimulator, type GceSimulator } from './start-gce-simulator.js';

describe('the metadata server', () => {
  let simulator: GceSimulator;
  const get = (path: string, headers: Record<string, string> = { 'Metadata-Flavor': 'Google' }) => fetch(`http://${simulator.metadataHost}/computeMetadata/v1/${path}`, { headers });

  beforeAll(async () => {
    simulator = await startGceSimulator({ project: 'p1', region: 'europe-west1', zones: ['europe-west1-b', 'europe-west1-c'], network: 'vpc' });
  });
  afterAll(() => simulator.close());

  it('answers the values the CCM reads, in the real formats, with Metadata-Flavor: Google', async () => {
    const expected: Record<string, string> = {
      'project/project-id': 'p1',
      'instance/zone': 'projects/100000000042/zones/europe-west1-b',
      'instance/network-interfaces/0/network': 'projects/100000000042/networks/vpc',
      'instance/hostname': 'ccm-control-plane.europe-west1-b.c.p1.internal',
    };
    for (const [path, value] of Object.entries(expected)) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('metadata-flavor')).toBe('Google');
      expect(await response.text()).toBe(value);
    }
  });

  it('lists a directory one entry per line, sub-directories with a trailing slash', async () => {
    expect(await (await get('instance/network-interfaces/')).text()).toBe('0/\n');
    const project = await (await get('project/')).text();
    expect(project.split('\n')).toEqual(['numeric-project-id', 'project-id', '']);
  });

  it('issues a service-account token the Compute API accepts', async () => {
    const token = (await (await get('instance/service-accounts/default/token')).json()) as { access_token: string; expires_in: number; token_type: string };
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBeGreaterThan(0);
    const zones = await fetch(`${simulator.url}/compute/v1/projects/p1/zones`, { headers: { authorization: `Bearer ${token.access_token}` } });
    expect(zones.status).toBe(200);
    const refused = await fetch(`${simulator.url}/compute/v1/projects/p1/zones`, { headers: { authorization: 'Bearer forged' } });
    expect(refused.status).toBe(401);
  });

  it('refuses requests without Metadata-Flavor: Google or with X-Forwarded-For, and unknown paths', async () => {
    expect((await get('project/project-id', {})).status).toBe(403);
    expect((await get('project/project-id', { 'Metadata-Flavor': 'Google', 'X-Forwarded-For': '10.0.0.1' })).status).toBe(403);
    expect((await get('instance/attributes/kube-env')).status).toBe(404);
  });
});
