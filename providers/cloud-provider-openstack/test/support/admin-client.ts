/** An openstack-client-ts client as the services' admin user in its project (the tests' own side channel to the real services). */
import type { OpenStackEndpoint } from '@ccm/openstack-services';
import { OpenStackClient } from 'openstack-client-ts';

export function adminClientOf(services: OpenStackEndpoint): OpenStackClient {
  return new OpenStackClient({
    authUrl: services.authUrl,
    region: services.region,
    credentials: { method: 'password', username: services.username, password: services.password, userDomainName: services.userDomainName },
    scope: { projectName: services.projectName, projectDomainName: services.projectDomainName },
    ...(services.caFile === undefined ? {} : { tls: { caFile: services.caFile } }),
  });
}
