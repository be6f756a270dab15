#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md and docs/iam-policy.json from the typed registries.
import { writeReferenceDocs } from '@ccm/core/service-input';
import { renderIamPolicy } from './iam-actions.js';
import { renderAwsReference } from './render-aws-reference.js';

writeReferenceDocs(import.meta.url, { 'cloud-controller-manager.md': renderAwsReference(), 'iam-policy.json': renderIamPolicy() });
