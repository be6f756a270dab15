/** @ccm/cloud-provider-aws: the AWS cloud provider for the cloud-controller-manager. */
export { AwsCloud, awsCloudProvider, createAwsCloud, defineAwsCloudProvider, registerAwsCloudProvider, type AwsCloudOptions, type AwsIdentity, type AwsPorts } from './aws-cloud.js';
export { AwsInstances, LABEL_ZONE_ID } from './aws-instances.js';
export { AwsLoadBalancers } from './aws-load-balancers.js';
export { AwsRoutes } from './aws-routes.js';
export { ALL_ANNOTATIONS, ANNOTATIONS, type AnnotationDefinition } from './annotations.js';
export { AWS_CLOUD_CONFIG_SCHEMA, GLOBAL_KEY_STATUS, SERVICE_OVERRIDE_KEY_STATUS } from './config/cloud-config-schema.js';
export { readAwsCloudConfig, type AwsCloudConfig, type ServiceOverride } from './config/read-aws-cloud-config.js';
export * from './errors.js';
export { AWS_PROVIDER_NAME, AwsProviderIdError, formatAwsProviderId, parseAwsProviderId } from './provider-id.js';
export type { Ec2Port } from './ports/ec2-port.js';
export type { ElbPort } from './ports/elb-port.js';
export type { Elbv2Port } from './ports/elbv2-port.js';
export type { MetadataPort } from './ports/metadata-port.js';
export { createAwsSdkClients } from './ports/sdk/aws-sdk-clients.js';
export { createSdkEc2Port } from './ports/sdk/sdk-ec2-port.js';
export { createSdkElbPort } from './ports/sdk/sdk-elb-port.js';
export { createSdkElbv2Port } from './ports/sdk/sdk-elbv2-port.js';
