#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries (run after the build).
import { writeReferenceDocs } from '@ccm/core/service-input';
import { renderVsphereReference } from './render-vsphere-reference.js';

writeReferenceDocs(import.meta.url, { 'cloud-controller-manager.md': renderVsphereReference() });
