#!/usr/bin/env node
// aws-cloud-controller-manager: the core CCM with the AWS provider and its tagging controller.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerAwsCloudProvider } from '../aws-cloud.js';
import { AWS_PROVIDER_NAME } from '../provider-id.js';
import { awsControllerManagerExtensions } from '../tagging/aws-controller-manager-extensions.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'aws-cloud-controller-manager',
  registry: registerAwsCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: AWS_PROVIDER_NAME,
  ...awsControllerManagerExtensions(),
});
