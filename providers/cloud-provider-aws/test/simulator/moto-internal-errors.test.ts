import { createServer, type Server } from 'node:http';
import { CreateVpcCommand, DescribeRegionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import { explainMotoInternalErrors, isReadCommand, MotoInternalError } from '../support/moto-internal-errors.js';
import { lastTracebackIn } from '../support/moto-server.js';
import { motoClientConfig } from '../support/moto-network.js';

/** werkzeug's page for an exception inside moto, as moto_server 5.2.1 sends it. */
const WERKZEUG_500 =
  '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>\n<p>The server encountered an internal error and was unable to complete your request.</p>\n';
const REGIONS_XML =
  '<?xml version="1.0" encoding="UTF-8"?><DescribeRegionsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId><regionInfo><item><regionName>us-east-1</regionName><regionEndpoint>ec2.us-east-1.amazonaws.com</regionEndpoint></item></regionInfo></DescribeRegionsResponse>';
const TRACEBACK = 'Traceback (most recent call last):\n  File "moto/ec2/models/instances.py", line 1, in describe\n    for x in self.reservations:\nRuntimeError: dictionary changed size during iteration';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A stand-in for moto that fails the first `failures` requests with werkzeug's 500 page. */
async function fakeMoto(failures: number): Promise<{ endpoint: string; requests: () => number }> {
  let requests = 0;
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      if (requests <= failures) {
        response.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(WERKZEUG_500);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/xml' }).end(REGIONS_XML);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { endpoint: `http://127.0.0.1:${port}`, requests: () => requests };
}

describe('moto internal errors in the test clients', () => {
  it('asks a read again after an HTML 500 and returns its answer', async () => {
    const moto = await fakeMoto(2);
    const client = explainMotoInternalErrors(new EC2Client(motoClientConfig(moto.endpoint, 'us-east-1')), { lastTraceback: () => TRACEBACK });
    const answer = await client.send(new DescribeRegionsCommand({}));
    expect(answer.Regions?.[0]?.RegionName).toBe('us-east-1');
    expect(moto.requests()).toBe(3);
  });

  it('fails a read after three HTML 500s with moto\'s traceback in the message', async () => {
    const moto = await fakeMoto(10);
    const client = explainMotoInternalErrors(new EC2Client(motoClientConfig(moto.endpoint, 'us-east-1')), { lastTraceback: () => TRACEBACK });
    const failure = await client.send(new DescribeRegionsCommand({})).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MotoInternalError);
    expect(String((failure as Error).message)).toContain('DescribeRegionsCommand after 3 attempt(s)');
    expect(String((failure as Error).message)).toContain('dictionary changed size during iteration');
    expect(moto.requests()).toBe(3);
  });

  it('never sends a write twice: one HTML 500 fails it with the traceback', async () => {
    const moto = await fakeMoto(1);
    const client = explainMotoInternalErrors(new EC2Client(motoClientConfig(moto.endpoint, 'us-east-1')), { lastTraceback: () => TRACEBACK });
    const failure = await client.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MotoInternalError);
    expect(moto.requests()).toBe(1);
  });

  it('tells reads from writes by the command name', () => {
    expect(isReadCommand('DescribeInstancesCommand')).toBe(true);
    expect(isReadCommand('DescribeTargetHealthCommand')).toBe(true);
    expect(isReadCommand('RunInstancesCommand')).toBe(false);
    expect(isReadCommand('Describer')).toBe(false);
  });

  it('cuts the last traceback out of moto\'s log, up to its exception line', () => {
    const log = `127.0.0.1 - - "POST / HTTP/1.1" 200 -\n${TRACEBACK.replace('RuntimeError', 'KeyError: 1\nTraceback (most recent call last):\n  File "x"\nRuntimeError')}\n127.0.0.1 - - "POST / HTTP/1.1" 500 -\n`;
    expect(lastTracebackIn(log)).toBe('Traceback (most recent call last):\n  File "x"\nRuntimeError: dictionary changed size during iteration');
    expect(lastTracebackIn('no errors here')).toBeUndefined();
  });
});
