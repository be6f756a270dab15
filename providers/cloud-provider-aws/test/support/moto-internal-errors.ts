/**
 * moto_server answers a request that raised inside moto (a race between its request threads, seen
 * once in a chaos run while the CCM wrote concurrently) with werkzeug's HTML "500 Internal Server
 * Error" page, which the AWS SDK reports as an XML parse error and nothing else. For the test's own
 * clients (setup and cloud checks, not the CCM): a read is asked again (at most three times in all),
 * and a write, or a read that keeps failing, fails with moto's own traceback in the message.
 */
import type { RunningMoto } from './moto-server.js';

/** The smallest view of an AWS SDK client this needs: its middleware stack. */
export interface ClientWithMiddleware {
  middlewareStack: { add(middleware: never, options: { step: 'finalizeRequest'; name: string }): void };
}

type Next = (args: unknown) => Promise<unknown>;
type Middleware = (next: Next, context: { commandName?: string }) => Next;

const READ_ATTEMPTS = 3;

/** The HTTP status of an SDK error, also when its body could not be parsed. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { $response, $metadata } = error as { $response?: { statusCode?: number }; $metadata?: { httpStatusCode?: number } };
  return $response?.statusCode ?? $metadata?.httpStatusCode;
}

export function isReadCommand(commandName: string | undefined): boolean {
  return /^(Describe|List|Get)[A-Z]/.test((commandName ?? '').replace(/Command$/, ''));
}

export class MotoInternalError extends Error {
  constructor(commandName: string, attempts: number, traceback: string | undefined, cause: unknown) {
    super(`moto_server answered 500 (an internal error of the simulator) to ${commandName} after ${attempts} attempt(s): ${traceback ?? 'moto logged no traceback'}`, { cause });
    this.name = 'MotoInternalError';
  }
}

/** Adds the read retry and the traceback to `client`; returns it. */
export function explainMotoInternalErrors<Client extends ClientWithMiddleware>(client: Client, moto: Pick<RunningMoto, 'lastTraceback'>): Client {
  const middleware: Middleware = (next, context) => async (args) => {
    const commandName = context.commandName ?? 'a request';
    const attempts = isReadCommand(commandName) ? READ_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(args);
      } catch (error) {
        if (httpStatusOf(error) !== 500) throw error;
        if (attempt >= attempts) throw new MotoInternalError(commandName, attempt, moto.lastTraceback(), error);
        console.warn(`moto_server answered 500 to ${commandName} (attempt ${attempt} of ${attempts}); asking again. ${moto.lastTraceback() ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  };
  client.middlewareStack.add(middleware as never, { step: 'finalizeRequest', name: 'explainMotoInternalErrors' });
  return client;
}
