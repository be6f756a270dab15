/**
 * The configuration files of the services, as text (pure functions of the layout, ports and
 * credentials). Every path points into the run's temporary directory; every listener is on
 * 127.0.0.1. Databases are reached over MariaDB's Unix socket as its passwordless root.
 */
export interface ServicesLayout {
  /** The run's temporary directory. */
  root: string;
  mysqlSocket: string;
  ports: { amqp: number; keystone: number; neutron: number; octavia: number };
  region: string;
  admin: { username: string; password: string; projectName: string; domainName: string };
  octaviaCa: { certificateFile: string; privateKeyFile: string };
}

export function databaseUrl(layout: ServicesLayout, database: string): string {
  return `mysql+pymysql://root@localhost/${database}?unix_socket=${layout.mysqlSocket}&charset=utf8`;
}

export function keystoneUrl(layout: ServicesLayout): string {
  return `http://127.0.0.1:${layout.ports.keystone}/v3`;
}

export function transportUrl(layout: ServicesLayout): string {
  return `rabbit://guest:guest@127.0.0.1:${layout.ports.amqp}/`;
}

/** `[keystone_authtoken]` (and Octavia's `[service_auth]`): the services validate tokens as the admin. */
function serviceCredentials(layout: ServicesLayout, section: string, withAuthenticateUri: boolean): string {
  return [
    `[${section}]`,
    ...(withAuthenticateUri ? [`www_authenticate_uri = ${keystoneUrl(layout)}`] : []),
    `auth_url = ${keystoneUrl(layout)}`,
    'auth_type = password',
    `username = ${layout.admin.username}`,
    `password = ${layout.admin.password}`,
    `project_name = ${layout.admin.projectName}`,
    `user_domain_name = ${layout.admin.domainName}`,
    `project_domain_name = ${layout.admin.domainName}`,
    `region_name = ${layout.region}`,
    '',
  ].join('\n');
}

export function keystoneConfiguration(layout: ServicesLayout): string {
  const directory = `${layout.root}/keystone`;
  return `[DEFAULT]
log_file = ${directory}/keystone.log

[database]
connection = ${databaseUrl(layout, 'keystone')}

[fernet_tokens]
key_repository = ${directory}/fernet-keys

[credential]
key_repository = ${directory}/credential-keys

[token]
expiration = 3600
`;
}

/** Neutron with ML2 and the `test` mechanism driver (binds ports on host `host-ovs-no_filter`) and the L3 router plugin. */
export function neutronConfiguration(layout: ServicesLayout): string {
  const directory = `${layout.root}/neutron`;
  return `[DEFAULT]
bind_host = 127.0.0.1
bind_port = ${layout.ports.neutron}
core_plugin = ml2
service_plugins = router
auth_strategy = keystone
api_paste_config = /etc/neutron/api-paste.ini
transport_url = ${transportUrl(layout)}
notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
api_workers = 0
rpc_workers = 0
rpc_state_report_workers = 0
state_path = ${directory}/state
log_file = ${directory}/neutron.log

[oslo_concurrency]
lock_path = ${directory}/lock

[database]
connection = ${databaseUrl(layout, 'neutron')}

${serviceCredentials(layout, 'keystone_authtoken', true)}
[ml2]
type_drivers = flat,vlan,vxlan
tenant_network_types = vxlan
mechanism_drivers = test
extension_drivers = port_security

[ml2_type_flat]
flat_networks = *

[ml2_type_vlan]
network_vlan_ranges = physnet1:100:200

[ml2_type_vxlan]
vni_ranges = 1:1000

[securitygroup]
enable_security_group = true
`;
}

/**
 * Octavia with the amphora provider and the noop compute/network/amphora/volume/image drivers:
 * load balancers go PENDING_CREATE -> ACTIVE without any VM. The worker still signs an amphora
 * certificate, hence the CA.
 */
export function octaviaConfiguration(layout: ServicesLayout): string {
  const directory = `${layout.root}/octavia`;
  return `[DEFAULT]
transport_url = ${transportUrl(layout)}

[api_settings]
bind_host = 127.0.0.1
bind_port = ${layout.ports.octavia}
auth_strategy = keystone
enabled_provider_drivers = amphora:The Octavia Amphora driver.
default_provider_driver = amphora

[database]
connection = ${databaseUrl(layout, 'octavia')}

[controller_worker]
amphora_driver = amphora_noop_driver
compute_driver = compute_noop_driver
network_driver = network_noop_driver
volume_driver = volume_noop_driver
image_driver = image_noop_driver
loadbalancer_topology = SINGLE
client_ca = ${layout.octaviaCa.certificateFile}

[certificates]
cert_generator = local_cert_generator
ca_certificate = ${layout.octaviaCa.certificateFile}
ca_private_key = ${layout.octaviaCa.privateKeyFile}

[task_flow]
jobboard_enabled = False

[oslo_messaging]
topic = octavia_prov

[oslo_concurrency]
lock_path = ${directory}/lock

${serviceCredentials(layout, 'keystone_authtoken', true)}
${serviceCredentials(layout, 'service_auth', false)}`;
}

/** An extra config file for the worker only: oslo.messaging at DEBUG logs each queue declaration (the readiness signal). */
export function octaviaWorkerLoggingConfiguration(): string {
  return `[DEFAULT]
default_log_levels = oslo_messaging=DEBUG,oslo.messaging=DEBUG,amqp=WARN,amqplib=WARN,sqlalchemy=WARN,stevedore=WARN,keystonemiddleware=WARN,taskflow=WARN,urllib3.connectionpool=WARN
`;
}

export function rabbitmqConfiguration(layout: ServicesLayout): string {
  return `listeners.tcp.1 = 127.0.0.1:${layout.ports.amqp}
loopback_users = none
log.console = false
log.file.level = warning
`;
}
