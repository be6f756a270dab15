/** Cloud-config files: the error type providers throw, the file reader, and the gcfg reader. */
export {
  CloudConfigError,
  type CloudConfigProblem,
  findCloudConfigError,
} from './cloud-config-error.js';
export {
  GcfgDocument,
} from './gcfg/gcfg-document.js';
export {
  defineGcfgSchema,
  type GcfgKeySpec,
  type GcfgSchema,
  type GcfgKeyType,
  type GcfgSchemaSpec,
  type GcfgSectionSpec,
} from './gcfg/gcfg-schema.js';
export {
  parseGcfg,
} from './gcfg/parse-gcfg.js';
export {
  describeGcfgKeyDefault,
  describeGcfgKeyType,
  renderGcfgSchemaDoc,
} from './gcfg/render-gcfg-schema-doc.js';
export {
  findDuplicateYamlKeys,
} from './yaml-duplicate-keys.js';
