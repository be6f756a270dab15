#!/usr/bin/env node
// azure-cloud-controller-manager: the core CCM with the Azure provider and the flags upstream's
// binary adds.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { defineAzureCloudProvider } from '../azure-cloud.js';
import { AZURE_PROVIDER_NAME } from '../provider-id.js';
import { azureControllerManagerExtensions } from './azure-controller-manager-extensions.js';

const extensions = azureControllerManagerExtensions();

process.exitCode = await runCloudControllerManager({
  commandName: 'azure-cloud-controller-manager',
  registry: defineAzureCloudProvider({ notFoundGracePeriodSeconds: extensions.notFoundGracePeriodSeconds }).register(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: AZURE_PROVIDER_NAME,
  ...extensions.settings,
});
