import { describe, it } from 'vitest';

/**
 * `describe` for suites that need something outside the repository (a file, a program). When
 * `unavailableReason` is set: under CI=true one failing test states why; elsewhere the suite is
 * skipped with a console warning that says how to install it.
 */
export function externalSuite(title: string, unavailableReason: string | undefined, installHint: string, body: () => void): void {
  if (unavailableReason === undefined) {
    describe(title, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('has what it needs', () => {
        throw new Error(`${unavailableReason}. To fix: ${installHint}`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPING "${title}": ${unavailableReason}.\n*** To run it, ${installHint}\n`);
  describe.skip(title, body);
}
