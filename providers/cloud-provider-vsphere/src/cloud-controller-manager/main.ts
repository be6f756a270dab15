#!/usr/bin/env node
// vsphere-cloud-controller-manager: the core CCM with the vSphere provider registered.
import { runProviderCommand } from '@ccm/core/app';
import { defineVsphereCloudProvider } from '../vsphere-cloud.js';
import { vsphereControllerManagerExtensions } from './vsphere-controller-manager-extensions.js';

const extensions = vsphereControllerManagerExtensions();
const code = await runProviderCommand(defineVsphereCloudProvider({ nodeLabels: extensions.nodeLabels }), { commandName: 'vsphere-cloud-controller-manager', ...extensions.settings });
extensions.close();
process.exitCode = extensions.exitCode(code);
