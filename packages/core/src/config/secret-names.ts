/**
 * Which configuration names hold secrets. Problems about such a variable name the file, line,
 * section and key, but never its value (nor a fragment of it).
 */
const SECRET_NAME = /pass(word|wd)?|secret|token|key|credential/i;

/** True for names like `password`, `secret-access-key`, `token-file`, `credentials`. */
export function looksLikeSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
