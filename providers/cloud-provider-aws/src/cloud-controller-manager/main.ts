#!/usr/bin/env node
// aws-cloud-controller-manager: the core CCM with the AWS provider registered.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerAwsCloudProvider } from '../aws-cloud.js';
import { AWS_PROVIDER_NAME } from '../provider-id.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'aws-cloud-controller-manager',
  registry: registerAwsCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: AWS_PROVIDER_NAME,
});
