#!/usr/bin/env node
// azure-cloud-controller-manager: the core CCM with the Azure provider and the flags upstream's
// binary adds.
import { runProviderCommand } from '@ccm/core/app';
import { defineAzureCloudProvider } from '../azure-cloud.js';
import { azureControllerManagerExtensions } from './azure-controller-manager-extensions.js';

const extensions = azureControllerManagerExtensions();
process.exitCode = await runProviderCommand(defineAzureCloudProvider({ notFoundGracePeriodSeconds: extensions.notFoundGracePeriodSeconds }), { commandName: 'azure-cloud-controller-manager', ...extensions.settings });
