#!/usr/bin/env node
// aws-cloud-controller-manager: the core CCM with the AWS provider and its tagging controller.
import { runProviderCommand } from '@ccm/core/app';
import { awsCloudProvider } from '../aws-cloud.js';
import { awsControllerManagerExtensions } from '../tagging/aws-controller-manager-extensions.js';

process.exitCode = await runProviderCommand(awsCloudProvider, { commandName: 'aws-cloud-controller-manager', ...awsControllerManagerExtensions() });
