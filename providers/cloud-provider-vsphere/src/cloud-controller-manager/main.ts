#!/usr/bin/env node
// vsphere-cloud-controller-manager: the core CCM with the vSphere provider registered.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { VSPHERE_PROVIDER_NAME } from '../provider-id.js';
import { defineVsphereCloudProvider } from '../vsphere-cloud.js';
import { parseNodeLabels, VSPHERE_FLAGS } from './vsphere-flags.js';

let nodeLabels: Readonly<Record<string, string>> = {};

process.exitCode = await runCloudControllerManager({
  commandName: 'vsphere-cloud-controller-manager',
  registry: defineVsphereCloudProvider({ nodeLabels: () => nodeLabels }).register(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: VSPHERE_PROVIDER_NAME,
  additionalFlags: [VSPHERE_FLAGS],
  onFlagsParsed: (flags) => {
    nodeLabels = parseNodeLabels(flags.valuesOf(VSPHERE_FLAGS).nodeLabels);
  },
});
