/**
 * Builds the SDK clients the adapters use (upstream `aws_sdk.go`): explicit region, one 30 s
 * request timeout, credentials from the SDK default chain (environment, shared files, web
 * identity, ECS, IMDS) or an assumed `RoleARN`, and `[ServiceOverride]` endpoints with their
 * signing region and name. SDK retries are off: the cloud API budget retries throttling and the
 * retry decorator 5xx and network errors instead.
 */
import { EC2Client, type EC2ClientConfig } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { fromTemporaryCredentials, type FromTemporaryCredentialsOptions } from '@aws-sdk/credential-providers';
import { findServiceOverride, SERVICE_ID_EC2, SERVICE_ID_ELB, SERVICE_ID_ELBV2, type ServiceOverride } from '../../config/read-aws-cloud-config.js';

export type AwsCredentials = EC2ClientConfig['credentials'];

export interface AwsClientSettings {
  region: string;
  serviceOverrides: readonly ServiceOverride[];
  /** Undefined: the SDK default credential chain. */
  credentials?: AwsCredentials;
  requestTimeoutMs?: number;
}

export interface AwsSdkClients {
  ec2: EC2Client;
  elb: ElasticLoadBalancingClient;
  elbv2: ElasticLoadBalancingV2Client;
}

const USER_AGENT = 'aws-cloud-controller-manager';

interface AuthOption {
  signingProperties?: Record<string, unknown>;
}

/** Signing region and name of an override replace the defaults of every auth option. */
function overrideSigning(config: { httpAuthSchemeProvider: (parameters: never) => AuthOption[] }, override: ServiceOverride): void {
  const original = config.httpAuthSchemeProvider;
  config.httpAuthSchemeProvider = (parameters: never) =>
    original(parameters).map((option) => ({
      ...option,
      signingProperties: {
        ...option.signingProperties,
        signingRegion: override.signingRegion,
        ...(override.signingName === '' ? {} : { signingName: override.signingName }),
      },
    }));
}

function baseConfig(serviceId: string, settings: AwsClientSettings): { configuration: EC2ClientConfig; override: ServiceOverride | undefined } {
  const override = findServiceOverride(settings.serviceOverrides, serviceId, settings.region);
  const configuration: EC2ClientConfig = {
    region: settings.region,
    maxAttempts: 1,
    customUserAgent: USER_AGENT,
    requestHandler: { requestTimeout: settings.requestTimeoutMs ?? 30_000, connectionTimeout: 10_000 },
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    ...(override === undefined ? {} : { endpoint: override.url }),
  };
  return { configuration, override };
}

export function createAwsSdkClients(settings: AwsClientSettings): AwsSdkClients {
  const ec2Base = baseConfig(SERVICE_ID_EC2, settings);
  const elbBase = baseConfig(SERVICE_ID_ELB, settings);
  const elbv2Base = baseConfig(SERVICE_ID_ELBV2, settings);
  const ec2 = new EC2Client(ec2Base.configuration);
  const elb = new ElasticLoadBalancingClient(elbBase.configuration);
  const elbv2 = new ElasticLoadBalancingV2Client(elbv2Base.configuration);
  if (ec2Base.override) overrideSigning(ec2.config as never, ec2Base.override);
  if (elbBase.override) overrideSigning(elb.config as never, elbBase.override);
  if (elbv2Base.override) overrideSigning(elbv2.config as never, elbv2Base.override);
  return { ec2, elb, elbv2 };
}

type ClientPlugin = NonNullable<FromTemporaryCredentialsOptions['clientPlugins']>[number];

/** The account ID of a role ARN (`arn:aws:iam::<account>:role/<name>`). */
export function accountOfArn(arn: string): string | undefined {
  const parts = arn.split(':');
  return parts.length >= 6 && /^\d{12}$/.test(parts[4] ?? '') ? parts[4] : undefined;
}

/**
 * Credentials of `roleArn` through STS AssumeRole (upstream `stscreds` provider), with the
 * confused-deputy headers `x-amz-source-account` (from the role ARN) and `x-amz-source-arn`.
 * STS is not covered by ServiceOverride: point it elsewhere with `AWS_ENDPOINT_URL_STS`.
 */
export function assumeRoleCredentials(roleArn: string, sourceArn: string, region: string): AwsCredentials {
  const headers: Record<string, string> = {};
  const account = accountOfArn(roleArn);
  if (account !== undefined) headers['x-amz-source-account'] = account;
  if (sourceArn !== '') headers['x-amz-source-arn'] = sourceArn;
  const plugin = {
    applyToStack(stack: { add(middleware: unknown, options: { step: string; name: string }): void }) {
      stack.add(
        (next: (arguments_: { request: { headers: Record<string, string> } }) => Promise<unknown>) =>
          async (arguments_: { request: { headers: Record<string, string> } }) => {
            Object.assign(arguments_.request.headers, headers);
            return next(arguments_);
          },
        { step: 'build', name: 'ccmSourceHeaders' },
      );
    },
  } as unknown as ClientPlugin;
  return fromTemporaryCredentials({
    params: { RoleArn: roleArn, RoleSessionName: USER_AGENT },
    clientConfig: { region },
    clientPlugins: [plugin],
  });
}
