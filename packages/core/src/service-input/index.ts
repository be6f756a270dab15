/**
 * The Service-input kit: annotation definitions with one status vocabulary, the one parse of
 * their values (InvalidAnnotationError, core kind `PermanentInvalidInput`), the client source
 * ranges, and the renderer of every provider's annotation and config-key tables.
 */
export { defineAnnotations, type AnnotationDefinition, type AnnotationTextOptions, type AnnotationValueKind, type AnnotationValueType, type KeyValueSyntax } from './annotation-definition.js';
export { describeInputStatus, INPUT_STATUS_LEGEND, INPUT_STATUSES, type InputStatus } from './input-status.js';
export { InvalidAnnotationError } from './invalid-annotation-error.js';
export {
  annotationsOf,
  annotationText,
  parseAnnotationValue,
  parseCidrList,
  parseKeyValuePairs,
  readAnnotation,
  splitList,
  type AnnotationValue,
  type ServiceAnnotations,
} from './read-annotation.js';
export { markdownCell, renderAnnotationTable, renderConfigKeyTable, renderMarkdownTable, type ConfigKeyRow, type KeyStatus, type TableColumn } from './render-input-tables.js';
export { ALLOW_ALL_IPV4, serviceSourceRanges, SPEC_LOAD_BALANCER_SOURCE_RANGES, type SourceRangesPolicy } from './source-ranges.js';
export { writeReferenceDocs } from './write-reference-docs.js';
