#!/usr/bin/env node
// azure-cloud-controller-manager: the core CCM with the Azure provider.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerAzureCloudProvider } from '../azure-cloud.js';
import { AZURE_PROVIDER_NAME } from '../provider-id.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'azure-cloud-controller-manager',
  registry: registerAzureCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: AZURE_PROVIDER_NAME,
});
