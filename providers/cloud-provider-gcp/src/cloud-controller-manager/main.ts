#!/usr/bin/env node
// gcp-cloud-controller-manager: the core CCM with the GCE provider (`--cloud-provider=gce`) and the
// flags upstream's binary adds.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { defineGcpCloudProvider } from '../gcp-cloud.js';
import { GCE_PROVIDER_NAME } from '../provider-id.js';
import { gcpControllerManagerExtensions } from './gcp-controller-manager-extensions.js';

const extensions = gcpControllerManagerExtensions();

process.exitCode = await runCloudControllerManager({
  commandName: 'gcp-cloud-controller-manager',
  registry: defineGcpCloudProvider({ healthCheckSourceRanges: extensions.healthCheckSourceRanges }).register(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: GCE_PROVIDER_NAME,
  ...extensions.settings,
});
