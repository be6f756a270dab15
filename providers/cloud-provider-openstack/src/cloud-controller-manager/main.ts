#!/usr/bin/env node
// openstack-cloud-controller-manager: the core CCM with the OpenStack provider and upstream's
// `--user-agent` flag.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { defineOpenStackCloudProvider } from '../openstack-cloud.js';
import { OPENSTACK_PROVIDER_NAME } from '../provider-id.js';
import { OPENSTACK_FLAGS, userAgentPrefix } from './openstack-flags.js';

let userAgent = '';

process.exitCode = await runCloudControllerManager({
  commandName: 'openstack-cloud-controller-manager',
  registry: defineOpenStackCloudProvider({ userAgent: () => userAgent }).register(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: OPENSTACK_PROVIDER_NAME,
  additionalFlags: [OPENSTACK_FLAGS],
  onFlagsParsed: (flags) => {
    userAgent = userAgentPrefix(flags.valuesOf(OPENSTACK_FLAGS).userAgent);
  },
});
