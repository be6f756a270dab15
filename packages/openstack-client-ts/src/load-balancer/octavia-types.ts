/** Octavia v2 resources (the fields callers use; the server may send more). */
export type ProvisioningStatus = 'ACTIVE' | 'DELETED' | 'ERROR' | 'PENDING_CREATE' | 'PENDING_UPDATE' | 'PENDING_DELETE';

export interface IdReference {
  id: string;
}

export interface LoadBalancer {
  id: string;
  name: string;
  description: string;
  provisioning_status: ProvisioningStatus;
  operating_status: string;
  admin_state_up: boolean;
  vip_address: string;
  vip_port_id: string;
  vip_subnet_id: string;
  vip_network_id: string;
  provider: string;
  flavor_id: string | null;
  availability_zone: string | null;
  listeners: IdReference[];
  pools: IdReference[];
  tags: string[];
  project_id: string;
}

export interface Listener {
  id: string;
  name: string;
  description: string;
  protocol: string;
  protocol_port: number;
  connection_limit: number;
  default_pool_id: string | null;
  loadbalancers: IdReference[];
  provisioning_status: ProvisioningStatus;
  operating_status: string;
  allowed_cidrs: string[] | null;
  timeout_client_data: number;
  timeout_member_connect: number;
  timeout_member_data: number;
  timeout_tcp_inspect: number;
  insert_headers: Record<string, string>;
  tags: string[];
}

export interface Pool {
  id: string;
  name: string;
  protocol: string;
  lb_algorithm: string;
  session_persistence: { type: string; cookie_name?: string | null } | null;
  listeners: IdReference[];
  loadbalancers: IdReference[];
  members: IdReference[];
  healthmonitor_id: string | null;
  provisioning_status: ProvisioningStatus;
  operating_status: string;
  tags: string[];
}

export interface Member {
  id: string;
  name: string;
  address: string;
  protocol_port: number;
  subnet_id: string | null;
  weight: number;
  monitor_address: string | null;
  monitor_port: number | null;
  backup: boolean;
  provisioning_status: ProvisioningStatus;
  operating_status: string;
  tags: string[];
}

/** A member of a batch update (`PUT /pools/{id}/members`): the pool's complete new member list. */
export interface MemberSpec {
  address: string;
  protocol_port: number;
  name?: string;
  subnet_id?: string;
  weight?: number;
  monitor_address?: string;
  monitor_port?: number;
  backup?: boolean;
  tags?: string[];
}

export interface HealthMonitor {
  id: string;
  name: string;
  type: string;
  delay: number;
  timeout: number;
  max_retries: number;
  max_retries_down: number;
  http_method?: string;
  url_path?: string;
  expected_codes?: string;
  pools: IdReference[];
  provisioning_status: ProvisioningStatus;
  operating_status: string;
  tags: string[];
}

export interface StatusTree {
  loadbalancer: {
    id: string;
    name: string;
    provisioning_status: ProvisioningStatus;
    operating_status: string;
    listeners: {
      id: string;
      name: string;
      provisioning_status: ProvisioningStatus;
      operating_status: string;
      pools: {
        id: string;
        name: string;
        provisioning_status: ProvisioningStatus;
        operating_status: string;
        health_monitor?: { id: string; type: string; provisioning_status: ProvisioningStatus; operating_status: string };
        members: { id: string; name: string; address: string; protocol_port: number; provisioning_status: ProvisioningStatus; operating_status: string }[];
      }[];
    }[];
  };
}

export interface ApiVersion {
  id: string;
  status: string;
}
