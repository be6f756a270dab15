/** Nova's version documents: `GET /` (300, every API version) and `GET /v2.1/` (the microversion range). */
import type { Links } from './nova-links.js';
import { formatMicroversion, NOVA_MAXIMUM_MICROVERSION, NOVA_MINIMUM_MICROVERSION } from './nova-microversion.js';

export function versionDocument(links: Links): Record<string, unknown> {
  return {
    id: 'v2.1',
    status: 'CURRENT',
    version: formatMicroversion(NOVA_MAXIMUM_MICROVERSION),
    min_version: formatMicroversion(NOVA_MINIMUM_MICROVERSION),
    updated: '2013-07-23T11:33:21Z',
    links: [
      { href: `${links.versioned}/`, rel: 'self' },
      { href: 'http://docs.openstack.org/', rel: 'describedby', type: 'text/html' },
    ],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.compute+json;version=2.1' }],
  };
}

export function versionsDocument(links: Links): Record<string, unknown> {
  return {
    versions: [
      { id: 'v2.0', status: 'SUPPORTED', version: '', min_version: '', updated: '2011-01-21T11:33:21Z', links: [{ href: `${links.bookmarkBase}/v2/`, rel: 'self' }] },
      {
        id: 'v2.1',
        status: 'CURRENT',
        version: formatMicroversion(NOVA_MAXIMUM_MICROVERSION),
        min_version: formatMicroversion(NOVA_MINIMUM_MICROVERSION),
        updated: '2013-07-23T11:33:21Z',
        links: [{ href: `${links.versioned}/`, rel: 'self' }],
      },
    ],
  };
}
