/**
 * AWS provider IDs (upstream `KubernetesInstanceID.MapToAWSInstanceID`). The CCM writes
 * `aws:///<availability-zone>/<instance-id>`; it accepts every form upstream accepts:
 * `aws:///<az>/i-x`, `aws:////i-x`, `aws:///i-x`, `aws://<az>/i-x` and a bare `i-x` (or `<az>/i-x`).
 * Stable identifier: never change the written format.
 */
export const AWS_PROVIDER_NAME = 'aws';

const INSTANCE_ID_PATTERN = /^i-[^/]*$/;
const FARGATE_PREFIX = 'fargate-';

export class AwsProviderIdError extends Error {
  readonly kind = 'InvalidProviderId' as const;
  readonly providerId: string;

  constructor(providerId: string, reason = `Invalid format for AWS instance (${providerId})`) {
    super(reason);
    this.name = 'AwsProviderIdError';
    this.providerId = providerId;
  }
}

export function formatAwsProviderId(availabilityZone: string, instanceId: string): string {
  return `${AWS_PROVIDER_NAME}:///${availabilityZone}/${instanceId}`;
}

/**
 * Returns the EC2 instance ID of a provider ID. Fargate IDs (`fargate-...`) parse upstream but
 * this provider does not implement the Fargate variant, so they are rejected with a clear reason.
 */
export function parseAwsProviderId(providerId: string): string {
  let path: string;
  if (providerId.startsWith(`${AWS_PROVIDER_NAME}://`)) {
    // URL form: `aws://<host>/<path>`; the host (if any) is ignored like upstream's url.Path.
    const rest = providerId.slice(`${AWS_PROVIDER_NAME}://`.length);
    const slash = rest.indexOf('/');
    path = slash < 0 ? '' : rest.slice(slash);
  } else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(providerId)) {
    throw new AwsProviderIdError(providerId, `Invalid scheme for AWS instance (${providerId})`);
  } else {
    path = `//${providerId}`;
  }
  // Upstream: the last path token is the resource ID (EC2 instance or Fargate), however many there are.
  const tokens = path.replace(/^\/+|\/+$/g, '').split('/');
  const instanceId = tokens[tokens.length - 1] ?? '';
  if (instanceId.startsWith(FARGATE_PREFIX)) {
    throw new AwsProviderIdError(providerId, `Fargate nodes are not supported by this provider (${providerId})`);
  }
  if (instanceId === '' || !INSTANCE_ID_PATTERN.test(instanceId)) throw new AwsProviderIdError(providerId);
  return instanceId;
}

/** Upstream `IsFargateNode`: the provider ID names a Fargate pod (`aws:///<zone>/fargate-...`), not an EC2 instance. */
export function isFargateProviderId(providerId: string): boolean {
  const path = providerId.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, '').replace(/\/+$/, '');
  return (path.split('/').pop() ?? '').startsWith(FARGATE_PREFIX);
}

/** Upstream resource-based node names: `i-0123` or `i-0123.<region>.compute.internal`. */
export function instanceIdFromNodeName(nodeName: string): string | undefined {
  if (!nodeName.startsWith('i-')) return undefined;
  const dot = nodeName.indexOf('.');
  return dot < 0 ? nodeName : nodeName.slice(0, dot);
}
