#!/usr/bin/env node
// gcp-cloud-controller-manager: the core CCM with the GCE provider (`--cloud-provider=gce`).
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerGcpCloudProvider } from '../gcp-cloud.js';
import { GCE_PROVIDER_NAME } from '../provider-id.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'gcp-cloud-controller-manager',
  registry: registerGcpCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: GCE_PROVIDER_NAME,
});
