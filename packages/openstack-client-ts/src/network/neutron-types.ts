/** Neutron v2.0 resources (the fields callers use; the server may send more). */
export interface FixedIp {
  subnet_id: string;
  ip_address: string;
}

export interface AllowedAddressPair {
  ip_address: string;
  mac_address?: string;
}

export interface Network {
  id: string;
  name: string;
  status: string;
  admin_state_up: boolean;
  subnets: string[];
  'router:external'?: boolean;
  shared?: boolean;
  project_id: string;
  mtu?: number;
  tags?: string[];
  description?: string;
}

export interface Subnet {
  id: string;
  name: string;
  network_id: string;
  cidr: string;
  ip_version: 4 | 6;
  gateway_ip: string | null;
  enable_dhcp: boolean;
  allocation_pools: { start: string; end: string }[];
  project_id: string;
  tags?: string[];
  description?: string;
}

export interface Port {
  id: string;
  name: string;
  network_id: string;
  mac_address: string;
  fixed_ips: FixedIp[];
  device_id: string;
  device_owner: string;
  status: string;
  admin_state_up: boolean;
  security_groups: string[];
  port_security_enabled?: boolean;
  allowed_address_pairs: AllowedAddressPair[];
  'binding:host_id'?: string;
  'binding:vif_type'?: string;
  project_id: string;
  tags?: string[];
  description?: string;
}

export interface FloatingIp {
  id: string;
  floating_ip_address: string;
  floating_network_id: string;
  port_id: string | null;
  fixed_ip_address: string | null;
  router_id: string | null;
  status: string;
  description: string;
  project_id: string;
  tags?: string[];
}

export interface RouterRoute {
  destination: string;
  nexthop: string;
}

export interface Router {
  id: string;
  name: string;
  status: string;
  admin_state_up: boolean;
  routes: RouterRoute[];
  external_gateway_info: { network_id: string; enable_snat?: boolean; external_fixed_ips?: FixedIp[] } | null;
  project_id: string;
  description?: string;
}

export interface SecurityGroupRule {
  id: string;
  security_group_id: string;
  direction: 'ingress' | 'egress';
  ethertype: 'IPv4' | 'IPv6';
  protocol: string | null;
  port_range_min: number | null;
  port_range_max: number | null;
  remote_ip_prefix: string | null;
  remote_group_id: string | null;
  description?: string;
}

export interface SecurityGroup {
  id: string;
  name: string;
  description: string;
  security_group_rules: SecurityGroupRule[];
  project_id: string;
  tags?: string[];
}

export interface Extension {
  alias: string;
  name: string;
  description: string;
}
