/**
 * The Service-input kit: annotation definitions with one status vocabulary, the one parse of
 * their values (InvalidAnnotationError, core kind `PermanentInvalidInput`), the client source
 * ranges, and the renderer of every provider's annotation and config-key tables.
 */
export {
  type AnnotationDefinition,
  type AnnotationValueKind,
  type AnnotationValueType,
  defineAnnotations,
} from './annotation-definition.js';
export {
  INPUT_STATUS_LEGEND,
  type InputStatus,
} from './input-status.js';
export {
  InvalidAnnotationError,
} from './invalid-annotation-error.js';
export {
  annotationsOf,
  annotationText,
  type AnnotationValue,
  parseAnnotationValue,
  parseKeyValuePairs,
  readAnnotation,
  type ServiceAnnotations,
} from './read-annotation.js';
export {
  type KeyStatus,
  markdownCell,
  renderAnnotationTable,
  renderConfigKeyTable,
} from './render-input-tables.js';
export {
  ALLOW_ALL_IPV4,
  serviceSourceRanges,
  SPEC_LOAD_BALANCER_SOURCE_RANGES,
} from './source-ranges.js';
