/**
 * A command-line problem found while parsing (unknown flag, bad value, missing value,
 * positional argument). The command prints `error: <message>` plus a hint to `--help` and
 * exits 2.
 */
export class FlagError extends Error {
  /** The flag as written (`--kube-api-burst`, `-v`), when the problem is about one flag. */
  readonly flag: string | undefined;
  /** The offending value, when there is one. */
  readonly value: string | undefined;

  constructor(message: string, details: { flag?: string; value?: string } = {}) {
    super(message);
    this.name = 'FlagError';
    this.flag = details.flag;
    this.value = details.value;
  }
}
