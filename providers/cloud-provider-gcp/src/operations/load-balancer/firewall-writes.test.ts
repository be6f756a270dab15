import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { GceApiError } from '../../errors.js';
import type { ComputePort, GceFirewall } from '../../ports/compute-port.js';
import { FirewallWrites, gcloudCreateCommand, gcloudDeleteCommand, gcloudUpdateCommand, MANUAL_CHANGE_REASON } from './firewall-writes.js';

const FIREWALL: GceFirewall = {
  name: 'k8s-fw-a1',
  network: 'https://compute.googleapis.com/compute/v1/projects/host/global/networks/shared',
  description: '{"kubernetes.io/service-name":"default/web", "kubernetes.io/service-ip":"203.0.113.7"}',
  sourceRanges: ['10.0.0.0/8', '0.0.0.0/0'],
  destinationRanges: ['203.0.113.7'],
  targetTags: ['node-b', 'node-a'],
  allowed: [{ IPProtocol: 'tcp', ports: ['443', '80'] }, { IPProtocol: 'udp', ports: ['53'] }],
};

describe('gcloud commands of a firewall change (upstream FirewallToGCloud*Cmd)', () => {
  it.each([
    [
      gcloudCreateCommand(FIREWALL, 'host'),
      'gcloud compute firewall-rules create k8s-fw-a1 --network shared --description "{\\"kubernetes.io/service-name\\":\\"default/web\\", \\"kubernetes.io/service-ip\\":\\"203.0.113.7\\"}" --allow tcp:443,tcp:80,udp:53 --source-ranges 0.0.0.0/0,10.0.0.0/8 --target-tags node-a,node-b --project host',
    ],
    [
      gcloudUpdateCommand({ ...FIREWALL, description: '' }, 'host'),
      'gcloud compute firewall-rules update k8s-fw-a1 --description "" --allow tcp:443,tcp:80,udp:53 --source-ranges 0.0.0.0/0,10.0.0.0/8 --target-tags node-a,node-b --project host',
    ],
    [gcloudDeleteCommand('k8s-fw-a1', 'host'), 'gcloud compute firewall-rules delete k8s-fw-a1 --project host'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('FirewallWrites', () => {
  const service: V1Service = { metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
  const forbidden = () => new GceApiError('Required compute.firewalls.create permission', { kind: 'Unauthorized', reason: 'forbidden', operation: 'compute.insertFirewall', retryable: false, httpStatus: 403 });
  const failing = (error: () => Error): ComputePort =>
    ({ insertFirewall: async () => { throw error(); }, patchFirewall: async () => { throw error(); }, deleteFirewall: async () => { throw error(); } }) as unknown as ComputePort;
  const setup = (onXpn: boolean, error: () => Error) => {
    const events: Array<[string, string, string]> = [];
    const writes = new FirewallWrites({ compute: failing(error), networkProject: 'host', onXpn, events: { normal: (subject, reason, message) => void events.push([subject.metadata?.name ?? '', reason, message]) } });
    return { writes, events };
  };

  it('on a Shared VPC a 403 becomes a Normal LoadBalancerManualChange event with the command, and the sync carries on', async () => {
    const { writes, events } = setup(true, forbidden);
    await writes.insert(service, FIREWALL);
    await writes.patch(service, FIREWALL);
    await writes.delete(service, FIREWALL.name);
    expect(events.map(([name, reason]) => [name, reason])).toEqual([['web', MANUAL_CHANGE_REASON], ['web', MANUAL_CHANGE_REASON], ['web', MANUAL_CHANGE_REASON]]);
    expect(events[0]?.[2]).toBe(`Firewall change required by security admin: \`${gcloudCreateCommand(FIREWALL, 'host')}\``);
    expect(events[2]?.[2]).toBe('Firewall change required by security admin: `gcloud compute firewall-rules delete k8s-fw-a1 --project host`');
  });

  it('outside a Shared VPC, or for another error, the write fails as before', async () => {
    await expect(setup(false, forbidden).writes.insert(service, FIREWALL)).rejects.toThrow('permission');
    const other = setup(true, () => new GceApiError('boom', { kind: 'Unavailable', reason: 'backendError', operation: 'compute.insertFirewall', retryable: true, httpStatus: 503 }));
    await expect(other.writes.patch(service, FIREWALL)).rejects.toThrow('boom');
    expect(other.events).toEqual([]);
  });
});
