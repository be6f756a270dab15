/** Where `.ci/install-prerequisites` (section gce-discovery) puts Compute v1's discovery document. */
export const DEFAULT_DISCOVERY_DOCUMENT = '/var/cache/ccm/gce/compute.v1.json';
/** Overrides DEFAULT_DISCOVERY_DOCUMENT. */
export const DISCOVERY_DOCUMENT_ENV = 'GCE_DISCOVERY_DOCUMENT';
export const DISCOVERY_INSTALL_HINT =
  'run `bash .ci/install-prerequisites` as root (section gce-discovery: pip downloads google-api-python-client==2.201.0 and extracts ' +
  `googleapiclient/discovery_cache/documents/compute.v1.json to ${DEFAULT_DISCOVERY_DOCUMENT}), or set ${DISCOVERY_DOCUMENT_ENV} to such a file`;

export function discoveryDocumentPath(environment: NodeJS.ProcessEnv = process.env): string {
  const override = environment[DISCOVERY_DOCUMENT_ENV];
  return override === undefined || override === '' ? DEFAULT_DISCOVERY_DOCUMENT : override;
}
