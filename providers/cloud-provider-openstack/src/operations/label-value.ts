/** Kubernetes label values (`validation.IsValidLabelValue`) and upstream's sanitizing of zone names. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
export const MAX_LABEL_VALUE_LENGTH = 63;

export function isLabelValue(value: string): boolean {
  return value.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(value);
}

/**
 * A valid label value made of `value` (the zone label from an availability zone name): characters
 * outside `[A-Za-z0-9_.-]` become `-`, it is cut to 63 characters and trimmed to begin and end
 * with a letter or digit. A valid value is returned unchanged.
 */
export function sanitizeLabelValue(value: string): string {
  if (isLabelValue(value)) return value;
  return value
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, MAX_LABEL_VALUE_LENGTH)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}
