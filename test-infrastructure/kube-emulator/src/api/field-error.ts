/**
 * Field-level validation errors, rendered like apimachinery's field.ErrorList so that messages
 * and Status causes read the same as a real apiserver's.
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooMany'
  | 'FieldValueTooLong';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The text after the type, e.g. `Invalid value: "x": must be ...`. */
  body: string;
}

/** Renders a value the way Go's field errors quote it. */
export function formatFieldValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const withDetail = (head: string, detail: string | undefined): string => (detail ? `${head}: ${detail}` : head);

export const fieldErrors = {
  required(field: string, detail?: string): FieldError {
    return { type: 'FieldValueRequired', field, body: withDetail('Required value', detail) };
  },
  invalid(field: string, value: unknown, detail?: string): FieldError {
    return { type: 'FieldValueInvalid', field, body: withDetail(`Invalid value: ${formatFieldValue(value)}`, detail) };
  },
  notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
    const list = supported.map((item) => JSON.stringify(item)).join(', ');
    return { type: 'FieldValueNotSupported', field, body: `Unsupported value: ${formatFieldValue(value)}: supported values: ${list}` };
  },
  duplicate(field: string, value: unknown): FieldError {
    return { type: 'FieldValueDuplicate', field, body: `Duplicate value: ${formatFieldValue(value)}` };
  },
  forbidden(field: string, detail: string): FieldError {
    return { type: 'FieldValueForbidden', field, body: withDetail('Forbidden', detail) };
  },
  tooMany(field: string, actual: number, maximum: number): FieldError {
    return { type: 'FieldValueTooMany', field, body: `Too many: ${actual}: must have at most ${maximum} items` };
  },
  tooLong(field: string, maximum: number): FieldError {
    return { type: 'FieldValueTooLong', field, body: `Too long: may not be more than ${maximum} bytes` };
  },
};

export function fieldErrorText(error: FieldError): string {
  return `${error.field}: ${error.body}`;
}

/** Like field.ErrorList.ToAggregate(): one error alone, several in brackets. */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const texts = [...new Set(errors.map(fieldErrorText))];
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}
