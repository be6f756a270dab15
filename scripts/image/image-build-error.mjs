// The one error type of the image build: a kind for programs, a one-line message naming the input
// for people (the CLI prints it alone and exits non-zero).

/** @typedef {'unknown-provider'|'bad-provider-package'|'missing-bundle'|'download-failed'|'checksum-mismatch'|'too-large'|'no-commit-time'} ImageBuildErrorKind */

export class ImageBuildError extends Error {
  name = 'ImageBuildError';
  /**
   * @param {ImageBuildErrorKind} kind
   * @param {string} message one line
   * @param {{ cause?: unknown }} [options]
   */
  constructor(kind, message, options) {
    super(message, options);
    this.kind = kind;
  }
}
