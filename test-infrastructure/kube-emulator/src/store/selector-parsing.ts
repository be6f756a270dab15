/** Parsing `labelSelector`/`fieldSelector` for a resource, with kube's 400 answers for bad input. */
import { statusErrors } from '../api/status-error.js';
import type { ResourceDefinition } from '../resources/resource-definition.js';
import { FieldSelectorParseError, parseFieldSelector, type FieldSelector } from '../selectors/field-selector.js';
import { LabelSelectorParseError, parseLabelSelector, type LabelSelector } from '../selectors/label-selector.js';

export function parseSelectors(definition: ResourceDefinition, labelSelector: string | undefined, fieldSelector: string | undefined): { labelSelector: LabelSelector; fieldSelector: FieldSelector } {
  let labels: LabelSelector;
  try {
    labels = parseLabelSelector(labelSelector);
  } catch (error) {
    if (error instanceof LabelSelectorParseError) throw statusErrors.badRequest(`unable to parse requirement: ${error.message}`);
    throw error;
  }
  let fields: FieldSelector;
  try {
    fields = parseFieldSelector(fieldSelector);
  } catch (error) {
    if (error instanceof FieldSelectorParseError) throw statusErrors.badRequest(error.message);
    throw error;
  }
  for (const requirement of fields.requirements) {
    if (!(requirement.field in definition.fieldSelectors)) throw statusErrors.badRequest(`field label not supported: ${requirement.field}`);
  }
  return { labelSelector: labels, fieldSelector: fields };
}
