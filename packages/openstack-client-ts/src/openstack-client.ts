/**
 * One entry point: a Keystone session built from options, and the service clients on it.
 */
import { createOpenStackDispatcher, type OpenStackTlsOptions } from './http/tls-options.js';
import { HttpTransport } from './http/http-transport.js';
import { KeystoneSession } from './identity/keystone-session.js';
import type { EndpointInterface, KeystoneCredentials, KeystoneScope } from './identity/keystone-types.js';
import { NeutronClient } from './network/neutron-client.js';
import { OctaviaClient } from './load-balancer/octavia-client.js';
import { NovaClient } from './compute/nova-client.js';

export interface OpenStackClientOptions {
  authUrl: string;
  credentials: KeystoneCredentials;
  scope?: KeystoneScope;
  region?: string;
  interface?: EndpointInterface;
  tls?: OpenStackTlsOptions;
  /** Per request; default 60 s. */
  timeoutMs?: number;
  userAgent?: string;
  /** Nova microversion (`2.47`); default none (the base API). */
  computeMicroversion?: string;
}

export class OpenStackClient {
  readonly session: KeystoneSession;
  readonly network: NeutronClient;
  readonly loadBalancer: OctaviaClient;
  readonly compute: NovaClient;

  constructor(options: OpenStackClientOptions) {
    const transport = new HttpTransport({
      dispatcher: createOpenStackDispatcher(options.tls ?? {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    });
    this.session = new KeystoneSession({
      authUrl: options.authUrl,
      credentials: options.credentials,
      transport,
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...(options.region === undefined ? {} : { region: options.region }),
      ...(options.interface === undefined ? {} : { interface: options.interface }),
    });
    this.network = new NeutronClient(this.session);
    this.loadBalancer = new OctaviaClient(this.session);
    this.compute = new NovaClient(this.session, options.computeMicroversion === undefined ? {} : { microversion: options.computeMicroversion });
  }
}
