/**
 * A patch that cannot be applied. `kind` decides the HTTP answer the way kube-apiserver's
 * patch handler does: malformed documents are 400, patches that do not apply are 422, and a few
 * strategic-merge failures surface as 500 (kube does not classify them).
 */
export type PatchErrorKind = 'bad-request' | 'unprocessable' | 'internal';

export class PatchError extends Error {
  readonly kind: PatchErrorKind;
  constructor(kind: PatchErrorKind, message: string) {
    super(message);
    this.name = 'PatchError';
    this.kind = kind;
  }
}
