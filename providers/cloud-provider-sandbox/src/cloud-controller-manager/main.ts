#!/usr/bin/env node
// sandbox-cloud-controller-manager: the core CCM with the sandbox provider registered.
import { runProviderCommand } from '@ccm/core/app';
import { sandboxCloudProvider } from '../sandbox-cloud.js';

process.exitCode = await runProviderCommand(sandboxCloudProvider, { commandName: 'sandbox-cloud-controller-manager' });
