/**
 * Nova's fault bodies: `{"<name>": {"code": N, "message": "..."}}` with the name Nova's fault
 * wrapper gives each status (`itemNotFound`, `badRequest`, `conflictingRequest`, ...), and
 * `computeFault` for any other.
 */
const FAULT_NAMES: Readonly<Record<number, string>> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  405: 'badMethod',
  409: 'conflictingRequest',
  413: 'overLimit',
  415: 'badMediaType',
  429: 'overLimit',
  501: 'notImplemented',
  503: 'serviceUnavailable',
};

export function novaFaultName(status: number): string {
  return FAULT_NAMES[status] ?? 'computeFault';
}

export function novaFaultBody(status: number, message: string): Record<string, { code: number; message: string }> {
  return { [novaFaultName(status)]: { code: status, message } };
}

/** An error a route throws to answer with a Nova fault. */
export class NovaFault extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'NovaFault';
    this.status = status;
  }
}
