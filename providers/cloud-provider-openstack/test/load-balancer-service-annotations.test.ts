/**
 * The annotations upstream's Service patcher writes (`loadbalancer_service_patcher.go`,
 * `ensureOctaviaLoadBalancer`): `load-balancer-id` once the load balancer is known,
 * `load-balancer-address` once its address is (the IP also when the status reports a hostname),
 * both written also when a later step fails; nothing written on update or delete.
 */
import { describe, expect, it } from 'vitest';
import { CloudStateError } from '@ccm/core/provider';
import { isOpenStackErrorKind } from '../src/errors.js';
import { annotationsToWrite } from '../src/kube/service-annotations.js';
import { CLUSTER, createHarness, makeNode, makeService } from './support/load-balancer-harness.js';

const ID = 'loadbalancer.openstack.org/load-balancer-id';
const ADDRESS = 'loadbalancer.openstack.org/load-balancer-address';

describe('OpenStack load balancer: the annotations written on the Service', () => {
  it('writes the load balancer ID and the floating IP once; a Service carrying them gets no patch', async () => {
    const { octavia, annotations, loadBalancers, nodes } = createHarness();
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    expect(annotations.writes).toEqual([{ service: 'default/web', annotations: { [ID]: loadBalancer!.id, [ADDRESS]: status.ingress![0]!.ip } }]);
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { [ID]: loadBalancer!.id, [ADDRESS]: status.ingress![0]!.ip! } }), nodes);
    expect(annotations.writes).toHaveLength(1);
  });

  it('the address is the IP while the status carries a hostname (PROXY protocol with enable-ingress-hostname, the hostname annotation)', async () => {
    const { annotations, loadBalancers, nodes } = createHarness({ enableIngressHostname: true });
    const status = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/proxy-protocol': 'true' } }), nodes);
    const address = annotations.writes[0]!.annotations[ADDRESS]!;
    expect(address).toMatch(/^172\.24\.4\.\d+$/);
    expect(status).toEqual({ ingress: [{ hostname: `${address}.nip.io` }] });
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'loadbalancer.openstack.org/hostname': 'lb.example.com' } }), nodes);
    expect(annotations.writes.map((write) => write.annotations[ADDRESS])).toEqual([address, address]);
  });

  it('internal: the VIP address', async () => {
    const { octavia, annotations, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService({ annotations: { 'service.beta.kubernetes.io/openstack-internal-load-balancer': 'true' } }), nodes);
    expect(annotations.writes[0]!.annotations[ADDRESS]).toBe([...octavia.loadBalancers.values()][0]!.vipAddress);
  });

  it('a step failing after the address is known still writes both (upstream\'s deferred patch); the sync fails', async () => {
    const { octavia, annotations, loadBalancers } = createHarness({ manageSecurityGroups: true });
    const withoutProviderId = { ...makeNode('node-1', '10.0.0.11'), spec: {} };
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), [withoutProviderId]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CloudStateError);
    expect(String(error)).toMatch(/node node-1: cannot attach security group lb-sg-uid-1-default-web/);
    expect(Object.keys(annotations.writes[0]!.annotations).sort()).toEqual([ADDRESS, ID]);
    expect(annotations.writes[0]!.annotations[ID]).toBe([...octavia.loadBalancers.values()][0]!.id);
  });

  it('a load balancer in ERROR: its ID is written, nothing else (upstream sets it before the ACTIVE check)', async () => {
    const { octavia, annotations, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    const [loadBalancer] = [...octavia.loadBalancers.values()];
    loadBalancer!.provisioningStatus = 'ERROR';
    const error = await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes).catch((caught: unknown) => caught);
    expect(isOpenStackErrorKind(error, 'ProvisioningFailed')).toBe(true);
    expect(annotations.writes.at(-1)).toEqual({ service: 'default/web', annotations: { [ID]: loadBalancer!.id } });
  });

  it('update and delete write nothing: the annotations stay on a deleted load balancer\'s Service, as upstream', async () => {
    const { annotations, loadBalancers, nodes } = createHarness();
    await loadBalancers.ensureLoadBalancer(CLUSTER, makeService(), nodes);
    await loadBalancers.updateLoadBalancer(CLUSTER, makeService(), nodes.slice(0, 1));
    await loadBalancers.ensureLoadBalancerDeleted(CLUSTER, makeService());
    expect(annotations.writes).toHaveLength(1);
  });

  it('annotationsToWrite keeps only the annotations the Service lacks or holds with another value', () => {
    const service = makeService({ annotations: { [ID]: 'lb-1', other: 'x' } });
    expect(annotationsToWrite(service, { [ID]: 'lb-1', [ADDRESS]: '192.0.2.1' })).toEqual({ [ADDRESS]: '192.0.2.1' });
    expect(annotationsToWrite(service, { [ID]: 'lb-2' })).toEqual({ [ID]: 'lb-2' });
    expect(annotationsToWrite(service, { [ID]: 'lb-1' })).toEqual({});
  });
});
