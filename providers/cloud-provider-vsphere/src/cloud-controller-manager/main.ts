#!/usr/bin/env node
// vsphere-cloud-controller-manager: the core CCM with the vSphere provider registered.
import { runCloudControllerManager } from '@ccm/core/app';
import { cloudProviders } from '@ccm/core/provider';
import { VSPHERE_PROVIDER_NAME } from '../provider-id.js';
import { defineVsphereCloudProvider } from '../vsphere-cloud.js';
import { vsphereControllerManagerExtensions } from './vsphere-controller-manager-extensions.js';

const extensions = vsphereControllerManagerExtensions();

const code = await runCloudControllerManager({
  commandName: 'vsphere-cloud-controller-manager',
  registry: defineVsphereCloudProvider({ nodeLabels: extensions.nodeLabels }).register(cloudProviders),
  argv: process.argv.slice(2),
  defaultCloudProvider: VSPHERE_PROVIDER_NAME,
  ...extensions.settings,
});
extensions.close();
process.exitCode = extensions.exitCode(code);
