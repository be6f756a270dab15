import { describe, expect, it } from 'vitest';
import { cloudsYaml } from './openstack-cli.js';

const endpoint = { authUrl: 'http://127.0.0.1:5000/v3', region: 'RegionOne', username: 'admin', password: 'secret-password', projectName: 'admin', userDomainName: 'Default', projectDomainName: 'Default' };

describe('openstack CLI configuration', () => {
  it('writes a clouds.yaml without the password, with the region and no image service', () => {
    const yaml = cloudsYaml(endpoint, 'openstack-services');
    expect(yaml).not.toContain('secret-password');
    expect(yaml).toContain('  openstack-services:\n    auth:\n      auth_url: "http://127.0.0.1:5000/v3"\n      username: "admin"');
    expect(yaml).toContain('    region_name: "RegionOne"');
    expect(yaml).toContain('    image_endpoint_override: "http://127.0.0.1:9/"');
    expect(yaml).not.toContain('cacert');
  });

  it('passes a CA file as cacert', () => {
    expect(cloudsYaml({ ...endpoint, caFile: '/tmp/ca.pem' }, 'c')).toContain('    cacert: "/tmp/ca.pem"');
  });
});
