/** A delegated authentication or authorization setting that keeps the command from starting; the message names the flag. */
export type DelegatedAuthStartupErrorKind =
  | 'AuthenticationKubeconfig'
  | 'AuthorizationKubeconfig'
  | 'ClientCaFile'
  | 'RequestHeaderClientCaFile'
  | 'AuthenticationLookup'
  | 'AlwaysAllowPaths';

export class DelegatedAuthStartupError extends Error {
  readonly kind: DelegatedAuthStartupErrorKind;
  constructor(kind: DelegatedAuthStartupErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DelegatedAuthStartupError';
    this.kind = kind;
  }
}
