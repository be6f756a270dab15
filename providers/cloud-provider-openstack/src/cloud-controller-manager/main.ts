#!/usr/bin/env node
// openstack-cloud-controller-manager: the core CCM with the OpenStack provider and upstream's
// `--user-agent` flag.
import { runProviderCommand } from '@ccm/core/app';
import { defineOpenStackCloudProvider } from '../openstack-cloud.js';
import { OPENSTACK_FLAGS, userAgentPrefix } from './openstack-flags.js';

let userAgent = '';

process.exitCode = await runProviderCommand(defineOpenStackCloudProvider({ userAgent: () => userAgent }), {
  commandName: 'openstack-cloud-controller-manager',
  additionalFlags: [OPENSTACK_FLAGS],
  onFlagsParsed: (flags) => {
    userAgent = userAgentPrefix(flags.valuesOf(OPENSTACK_FLAGS).userAgent);
  },
});
