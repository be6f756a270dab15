#!/usr/bin/env node
// openstack-cloud-controller-manager: the core CCM with the OpenStack provider.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { registerOpenStackCloudProvider } from '../openstack-cloud.js';
import { OPENSTACK_PROVIDER_NAME } from '../provider-id.js';

process.exitCode = await runCloudControllerManager({
  commandName: 'openstack-cloud-controller-manager',
  registry: registerOpenStackCloudProvider(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: OPENSTACK_PROVIDER_NAME,
});
