#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries.
import { writeReferenceDocs } from '@ccm/core/service-input';
import { renderGcpReference } from './render-gcp-reference.js';

writeReferenceDocs(import.meta.url, { 'cloud-controller-manager.md': renderGcpReference() });
