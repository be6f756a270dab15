/** Registers a service and its public/internal/admin endpoints in Keystone's catalog (admin token). */
export interface AdminCredentials {
  authUrl: string;
  username: string;
  password: string;
  projectName: string;
  domainName: string;
}

export interface CatalogService {
  /** `network`, `load-balancer`. */
  type: string;
  name: string;
  description: string;
  region: string;
  url: string;
}

export async function adminToken(credentials: AdminCredentials): Promise<string> {
  const response = await fetch(`${credentials.authUrl}/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: { methods: ['password'], password: { user: { name: credentials.username, domain: { name: credentials.domainName }, password: credentials.password } } },
        scope: { project: { name: credentials.projectName, domain: { name: credentials.domainName } } },
      },
    }),
  });
  await response.arrayBuffer();
  const token = response.headers.get('x-subject-token');
  if (response.status !== 201 || token === null) throw new Error(`Keystone refused the admin credentials (HTTP ${response.status})`);
  return token;
}

async function post(url: string, token: string, body: unknown): Promise<Record<string, { id: string }>> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${url}: HTTP ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, { id: string }>;
}

export async function registerService(credentials: AdminCredentials, service: CatalogService): Promise<void> {
  const token = await adminToken(credentials);
  const created = await post(`${credentials.authUrl}/services`, token, { service: { type: service.type, name: service.name, description: service.description, enabled: true } });
  const serviceId = created['service']!.id;
  for (const endpointInterface of ['public', 'internal', 'admin']) {
    await post(`${credentials.authUrl}/endpoints`, token, { endpoint: { service_id: serviceId, interface: endpointInterface, region_id: service.region, url: service.url, enabled: true } });
  }
}
