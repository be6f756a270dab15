/**
 * Keystone's `keystone-wsgi-public` and Octavia's `octavia-api` serve with `wsgiref`'s
 * simple_server: one request at a time and a listen backlog of 5. When one request waits (a
 * token check against Keystone, a row lock in MariaDB), every other client's connection is
 * left unaccepted, and a busy test run saw `connect timeout` to Octavia after 30 s.
 *
 * The same WSGI applications run here under a threaded server from Python's standard library
 * (a thread per request, a backlog of 128, a 60 s read timeout so a client that never sends
 * its request does not hold a thread), as they run under uWSGI or mod_wsgi with threads in a
 * real deployment. Nothing is installed: the script is written next to the services' files
 * and run by the interpreter of the Debian package's own launcher.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const THREADED_WSGI_SCRIPT = `import argparse
import importlib
import socketserver
import sys
from wsgiref import simple_server


class ThreadingWSGIServer(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True
    request_queue_size = 128


class RequestHandler(simple_server.WSGIRequestHandler):
    timeout = 60


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--host', required=True)
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--factory', required=True, help='module:function returning the WSGI application')
    parser.add_argument('rest', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    rest = args.rest[1:] if args.rest[:1] == ['--'] else args.rest
    module_name, function_name = args.factory.split(':')
    factory = getattr(importlib.import_module(module_name), function_name)
    sys.argv[1:] = rest  # the factories read their options (--config-file) from sys.argv
    application = factory()
    server = simple_server.make_server(args.host, args.port, application, server_class=ThreadingWSGIServer, handler_class=RequestHandler)
    print('serving %s on %s:%d (threaded)' % (args.factory, args.host, args.port), flush=True)
    server.serve_forever()


if __name__ == '__main__':
    main()
`;

/** Writes the launcher into `directory`; returns its path. */
export function writeThreadedWsgiScript(directory: string): string {
  const path = join(directory, 'threaded_wsgi_server.py');
  writeFileSync(path, THREADED_WSGI_SCRIPT);
  return path;
}

/** The interpreter named on the first line of a Debian launcher script (`#! /usr/bin/python3`). */
export function scriptInterpreter(scriptPath: string): string {
  const firstLine = readFileSync(scriptPath, 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!\s*(\S+)/.exec(firstLine);
  if (match === null) throw new Error(`${scriptPath}: no interpreter on its first line`);
  return match[1]!;
}
