#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries.
import { writeReferenceDocs } from '@ccm/core/service-input';
import { renderAzureReference } from './render-azure-reference.js';

writeReferenceDocs(import.meta.url, { 'cloud-controller-manager.md': renderAzureReference() });
