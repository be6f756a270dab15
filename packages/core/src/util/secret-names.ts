/**
 * Which names hold secret values: one rule for the whole core. Log fields under such keys are
 * redacted; configuration problems about such variables name file, line, section and key but
 * never the value.
 */
const SECRET_VALUE_NAME = /password|passwd|passphrase|secret|token|credential|private[-_]?key|api[-_]?key|access[-_]?key|authorization|cookie/i;

/** True for names like `password`, `clientSecret`, `token`, `credentials`, `secret-access-key`. */
export function isSecretName(name: string): boolean {
  return SECRET_VALUE_NAME.test(name);
}

/**
 * Configuration errors withhold more: any variable whose name mentions `pass` or `key` may hold
 * key material (`pass`, `keyfile-contents`, ...), and withholding a harmless value costs nothing.
 */
export function mayHoldSecret(name: string): boolean {
  return isSecretName(name) || /pass|key/i.test(name);
}
