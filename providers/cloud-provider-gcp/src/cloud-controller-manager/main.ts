#!/usr/bin/env node
// gcp-cloud-controller-manager: the core CCM with the GCE provider (`--cloud-provider=gce`) and the
// flags and controller names upstream's binary adds.
import { runProviderCommand } from '@ccm/core/app';
import { defineGcpCloudProvider } from '../gcp-cloud.js';
import { gcpControllerManagerExtensions } from './gcp-controller-manager-extensions.js';

const { settings, healthCheckSourceRanges } = gcpControllerManagerExtensions();
process.exitCode = await runProviderCommand(defineGcpCloudProvider({ healthCheckSourceRanges }), { commandName: 'gcp-cloud-controller-manager', ...settings });
