/** A refused credential: one log line per distinct problem, a recovery line, and a cooldown before Entra is asked again. */
import type { AccessToken, TokenCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';
import { ReportingTokenCredential, describeCredentialProblem } from '../../src/ports/sdk/credentials/reporting-token-credential.js';
import { RecordingLogger } from '../helpers.js';

class AuthenticationError extends Error {
  override name = 'AuthenticationError';
}

const refusal = (code: number, trace: string): Error =>
  new AuthenticationError(`ClientSecretCredential authentication failed: AADSTS${code}: Invalid client secret provided. Trace ID: ${trace} Correlation ID: ${trace}-c Timestamp: 2026-11-28 00:00:00Z`);

function scripted(answers: Array<Error | AccessToken>): TokenCredential & { calls: number } {
  const credential = {
    calls: 0,
    async getToken(): Promise<AccessToken> {
      const answer = answers[Math.min(credential.calls, answers.length - 1)] as Error | AccessToken;
      credential.calls += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return credential;
}

describe('ReportingTokenCredential', () => {
  it('logs a problem once however often it recurs, backs off, and logs the recovery', async () => {
    let now = 0;
    const logger = new RecordingLogger();
    const inner = scripted([refusal(7000215, 'a'), refusal(7000215, 'b'), refusal(7000215, 'c'), { token: 'tok', expiresOnTimestamp: 1 }]);
    const credential = new ReportingTokenCredential(inner, { logger, description: { authentication: 'client secret', clientId: 'c1' }, now: () => now, initialCooldownMs: 1_000, maxCooldownMs: 4_000 });

    await expect(credential.getToken('scope')).rejects.toThrow(/AADSTS7000215/);
    // Within the cooldown Entra is not asked again.
    now = 500;
    await expect(credential.getToken('scope')).rejects.toThrow(/AADSTS7000215/);
    expect(inner.calls).toBe(1);
    now = 1_000;
    await expect(credential.getToken('scope')).rejects.toThrow(/AADSTS7000215/);
    expect(inner.calls).toBe(2);
    // The cooldown doubled: 2 s.
    now = 2_999;
    await expect(credential.getToken('scope')).rejects.toThrow();
    expect(inner.calls).toBe(2);
    now = 3_000;
    await expect(credential.getToken('scope')).rejects.toThrow();
    now = 7_000;
    expect(await credential.getToken('scope')).toEqual({ token: 'tok', expiresOnTimestamp: 1 });

    const refused = logger.lines.filter((line) => line.message.startsWith('Azure credential refused'));
    expect(refused).toHaveLength(1);
    expect(refused[0]?.fields).toEqual({ authentication: 'client secret', clientId: 'c1', problem: 'AuthenticationError: ClientSecretCredential authentication failed: AADSTS7000215: Invalid client secret provided.' });
    expect(logger.lines.filter((line) => line.message === 'Azure credential accepted again')).toHaveLength(1);
  });

  it('logs each distinct problem once until a token is issued, however they alternate', async () => {
    let now = 0;
    const logger = new RecordingLogger();
    const credential = new ReportingTokenCredential(scripted([refusal(7000215, 'a'), refusal(700016, 'b'), refusal(7000215, 'c'), refusal(700016, 'd')]), { logger, description: { authentication: 'client secret' }, now: () => now });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      now += 120_000;
      await expect(credential.getToken('scope')).rejects.toThrow();
    }
    expect(logger.lines.filter((line) => line.message.startsWith('Azure credential refused')).map((line) => line.fields?.['problem'])).toEqual([
      expect.stringContaining('AADSTS7000215'),
      expect.stringContaining('AADSTS700016'),
    ]);
  });

  it('explains MSAL codes that say little by themselves', () => {
    const error = new Error('endpoints_resolution_error: See https://aka.ms/msal.js.errors#endpoints_resolution_error for details');
    error.name = 'CredentialUnavailableError';
    expect(describeCredentialProblem(error)).toBe(
      'CredentialUnavailableError: endpoints_resolution_error: See https://aka.ms/msal.js.errors#endpoints_resolution_error for details (the Entra authority could not be reached, or did not serve its OpenID configuration)',
    );
  });

  it('drops the trace and correlation IDs and the timestamp from the problem', () => {
    expect(describeCredentialProblem(refusal(7000215, 'x'))).toBe('AuthenticationError: ClientSecretCredential authentication failed: AADSTS7000215: Invalid client secret provided.');
  });
});
