#!/usr/bin/env node
// sandbox-cloud-controller-manager: the core CCM with the sandbox provider registered.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerSandboxCloudProvider } from '../sandbox-cloud.js';
import { SANDBOX_PROVIDER_NAME } from '../provider-id.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'sandbox-cloud-controller-manager',
  registry: registerSandboxCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: SANDBOX_PROVIDER_NAME,
});
