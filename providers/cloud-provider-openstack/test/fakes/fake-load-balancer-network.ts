/**
 * In-memory Neutron as the load balancer sees it (floating IPs, ports, subnets), behind the
 * provider's `LoadBalancerNetworkPort`, refusing what Neutron refuses: a port name over 255, an
 * address outside the subnet (Invalid) or already held (Conflict), unknown subnets, ports and
 * floating IPs (NotFound), a floating IP address already allocated (Conflict). Every changing
 * call is recorded.
 */
import { OpenStackApiError } from '../../src/errors.js';
import { addressInCidr } from './fake-addresses.js';
import { fakeError, MAX_NAME_LENGTH } from './fake-errors.js';
import type { FloatingIpCreateSpec, LoadBalancerNetworkPort, NeutronFloatingIp, NeutronPortSummary, NeutronSubnetSummary } from '../../src/ports/load-balancer-network-port.js';

export const notFound = (what: string, operation: string): OpenStackApiError => new OpenStackApiError(`${what} not found`, { kind: 'NotFound', operation, retryable: false, httpStatus: 404 });

/** Neutron's floating IPs, ports and subnets as the load balancer sees them. */
export class FakeLoadBalancerNetwork implements LoadBalancerNetworkPort {
  readonly floatingIps = new Map<string, NeutronFloatingIp>();
  readonly ports = new Map<string, NeutronPortSummary>();
  readonly subnets = new Map<string, NeutronSubnetSummary>();
  readonly calls: string[] = [];
  readonly createdFloatingIps: FloatingIpCreateSpec[] = [];
  #next = 1;
  #nextFloating = 10;
  #nextFixed = new Map<string, number>();

  addSubnet(subnet: NeutronSubnetSummary): void {
    this.subnets.set(subnet.id, subnet);
  }

  addPort(port: NeutronPortSummary): void {
    this.ports.set(port.id, port);
  }

  addFloatingIp(floating: Omit<NeutronFloatingIp, 'id'>): NeutronFloatingIp {
    const stored = { ...floating, id: `fip-${this.#next++}` };
    this.floatingIps.set(stored.id, stored);
    return stored;
  }

  async floatingIpsOfPort(portId: string): Promise<NeutronFloatingIp[]> {
    this.calls.push(`floatingIpsOfPort ${portId}`);
    return [...this.floatingIps.values()].filter((floating) => floating.portId === portId).map((floating) => ({ ...floating }));
  }

  async floatingIpsByAddress(address: string): Promise<NeutronFloatingIp[]> {
    this.calls.push(`floatingIpsByAddress ${address}`);
    return [...this.floatingIps.values()].filter((floating) => floating.address === address).map((floating) => ({ ...floating }));
  }

  async createFloatingIp(spec: FloatingIpCreateSpec): Promise<NeutronFloatingIp> {
    this.calls.push(`createFloatingIp ${spec.floatingNetworkId}`);
    this.createdFloatingIps.push({ ...spec });
    if (!this.ports.has(spec.portId)) throw notFound(`port ${spec.portId}`, 'network.createFloatingIp');
    if (spec.address !== undefined && [...this.floatingIps.values()].some((floating) => floating.address === spec.address)) {
      throw new OpenStackApiError(`IP address ${spec.address} already allocated`, { kind: 'Conflict', operation: 'network.createFloatingIp', retryable: false, httpStatus: 409 });
    }
    const stored: NeutronFloatingIp = { id: `fip-${this.#next++}`, address: spec.address ?? `172.24.4.${this.#nextFloating++}`, floatingNetworkId: spec.floatingNetworkId, portId: spec.portId, description: spec.description };
    this.floatingIps.set(stored.id, stored);
    return { ...stored };
  }

  async attachFloatingIp(id: string, portId: string | undefined): Promise<NeutronFloatingIp> {
    this.calls.push(`attachFloatingIp ${id} ${portId ?? 'none'}`);
    const floating = this.floatingIps.get(id);
    if (floating === undefined) throw notFound(`floating IP ${id}`, 'network.updateFloatingIp');
    if (portId !== undefined && !this.ports.has(portId)) throw notFound(`port ${portId}`, 'network.updateFloatingIp');
    floating.portId = portId;
    return { ...floating };
  }

  async deleteFloatingIp(id: string): Promise<void> {
    this.calls.push(`deleteFloatingIp ${id}`);
    if (!this.floatingIps.delete(id)) throw notFound(`floating IP ${id}`, 'network.deleteFloatingIp');
  }

  async getPort(id: string): Promise<NeutronPortSummary | undefined> {
    const port = this.ports.get(id);
    return port === undefined ? undefined : structuredClone(port);
  }

  async findPortsByName(name: string): Promise<NeutronPortSummary[]> {
    return [...this.ports.values()].filter((port) => port.name === name).map((port) => structuredClone(port));
  }

  async portsWithAddress(address: string): Promise<NeutronPortSummary[]> {
    return [...this.ports.values()].filter((port) => port.fixedIps.some((fixed) => fixed.address === address)).map((port) => structuredClone(port));
  }

  async createPort(spec: { name: string; description: string; networkId: string; subnetId: string; address?: string }): Promise<NeutronPortSummary> {
    this.calls.push(`createPort ${spec.name}`);
    if (spec.name.length > MAX_NAME_LENGTH) throw fakeError('Invalid', 'network.createPort');
    const subnet = this.subnets.get(spec.subnetId);
    if (subnet === undefined) throw notFound(`subnet ${spec.subnetId}`, 'network.createPort');
    if (spec.address !== undefined) {
      if (!addressInCidr(spec.address, subnet.cidr)) throw fakeError('Invalid', 'network.createPort');
      if ([...this.ports.values()].some((port) => port.fixedIps.some((fixed) => fixed.address === spec.address))) throw fakeError('Conflict', 'network.createPort');
    }
    const next = this.#nextFixed.get(subnet.id) ?? 100;
    this.#nextFixed.set(subnet.id, next + 1);
    const address = spec.address ?? `${subnet.cidr.split('.').slice(0, 3).join('.')}.${next}`;
    const port: NeutronPortSummary = { id: `port-${this.#next++}`, name: spec.name, description: spec.description, networkId: spec.networkId, fixedIps: [{ subnetId: subnet.id, address }] };
    this.ports.set(port.id, port);
    return structuredClone(port);
  }

  async deletePort(id: string): Promise<void> {
    this.calls.push(`deletePort ${id}`);
    if (!this.ports.delete(id)) throw notFound(`port ${id}`, 'network.deletePort');
    for (const floating of this.floatingIps.values()) if (floating.portId === id) floating.portId = undefined;
  }

  async getSubnet(id: string): Promise<NeutronSubnetSummary | undefined> {
    const subnet = this.subnets.get(id);
    return subnet === undefined ? undefined : { ...subnet };
  }

  async subnetsOfNetwork(networkId: string): Promise<NeutronSubnetSummary[]> {
    return [...this.subnets.values()].filter((subnet) => subnet.networkId === networkId).map((subnet) => ({ ...subnet }));
  }
}
