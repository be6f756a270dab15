import type { ProxiedRequest } from '@ccm/testing/chaos';

/**
 * Operations that read or only open a session (AWS `Describe*`, vSphere `RetrieveProperties`,
 * `Login`, property-collector views; sandbox `.list`/`.get`/`.batchGet`; GCE and ARM `GET`s, GCE
 * `operations/{name}/wait`; the OAuth token endpoints: Google's `token-url`, Entra's `entra.*`):
 * everything else changes the cloud and must come from the lease holder.
 */
const READ_OPERATION = new RegExp(
  [
    '^(Describe|List|Get|Retrieve|Find|Query|Wait|Login|Logout|SessionIsActive|CurrentTime|Continue|HasPrivilege|Fetch)',
    '^(Create|Destroy)(ContainerView|ListView|PropertyCollector|PropertyFilter|Filter)$',
    '^DestroyView$',
    '\\.(list|get|batchGet)$',
    '^(GET|HEAD) ',
    '^POST /?token$',
    '^POST .*/operations/\\{name\\}/wait$',
    '^entra\\.',
  ].join('|'),
);

export function isCloudWrite(operation: string, request: ProxiedRequest): boolean {
  if (['GET', 'HEAD'].includes(request.method.toUpperCase())) return false;
  return !READ_OPERATION.test(operation);
}
