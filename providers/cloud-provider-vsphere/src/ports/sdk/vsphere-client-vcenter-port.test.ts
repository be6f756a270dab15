import { INSECURE_TLS_MESSAGE, silentLogger, type LogFields } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import type { VcenterConfig } from '../../config/vsphere-config.js';
import { createVsphereClientVcenterPort } from './vsphere-client-vcenter-port.js';

function vcenter(insecure: boolean): VcenterConfig {
  return {
    name: 'vc1',
    server: 'vcenter.example',
    port: 443,
    insecure,
    datacenters: [],
    roundTripCount: 1,
    caFile: '',
    thumbprint: '',
    credentials: { kind: 'inline', username: 'u', password: 'p' },
    ipFamilies: ['ipv4'],
    place: { fileName: 'vsphere.conf', line: 1 },
  };
}

describe('createVsphereClientVcenterPort', () => {
  it('warns once at start-up when insecure-flag turns certificate verification off, and not otherwise', () => {
    for (const insecure of [true, false]) {
      const warnings: Array<{ message: string; fields: LogFields | undefined }> = [];
      createVsphereClientVcenterPort(vcenter(insecure), () => Promise.resolve({ username: 'u', password: 'p' }), { ...silentLogger, warn: (message, fields) => warnings.push({ message, fields }) });
      expect(warnings).toEqual(insecure ? [{ message: INSECURE_TLS_MESSAGE, fields: { target: 'vCenter "vc1" (https://vcenter.example:443)', setting: 'insecure-flag' } }] : []);
    }
  });
});
