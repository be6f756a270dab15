/**
 * How each cloud says "server error" and "slow down": the proxy answers an injected fault the
 * way that cloud's API would, so the CCM's own error classification and retry logic run.
 */
import type { ProxiedRequest } from './proxied-request.js';

export interface FaultResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CloudFaultFlavor {
  readonly name: string;
  serverError(request: ProxiedRequest): FaultResponse;
  /** The cloud's throttling answer, with Retry-After. */
  throttle(request: ProxiedRequest, retryAfterSeconds: number): FaultResponse;
}

const requestId = (): string => `chaos-${Math.floor(Math.random() * 0xffffffff).toString(16)}`;

function xml(status: number, body: string, extra: Record<string, string> = {}): FaultResponse {
  return { status, headers: { 'content-type': 'text/xml;charset=UTF-8', ...extra }, body };
}

/** EC2 query API (`Version=2016-11-15`) and the ELB/ELBv2 query APIs answer in different XML shapes. */
function isEc2(request: ProxiedRequest): boolean {
  return /(?:^|&)Version=2016-11-15(?:&|$)/.test(request.body) || /[?&]Version=2016-11-15/.test(request.path);
}

/** AWS: EC2 `RequestLimitExceeded` (503) and `InternalError` (500); ELB `Throttling` (400) and `InternalFailure` (500). */
export const AWS_FAULTS: CloudFaultFlavor = {
  name: 'aws',
  serverError(request) {
    if (isEc2(request)) {
      return xml(500, `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>InternalError</Code><Message>An internal error has occurred (injected by the chaos proxy)</Message></Error></Errors><RequestID>${requestId()}</RequestID></Response>`);
    }
    return xml(500, `<ErrorResponse><Error><Type>Receiver</Type><Code>InternalFailure</Code><Message>injected by the chaos proxy</Message></Error><RequestId>${requestId()}</RequestId></ErrorResponse>`);
  },
  throttle(request, retryAfterSeconds) {
    const retryAfter = { 'retry-after': String(retryAfterSeconds) };
    if (isEc2(request)) {
      return xml(503, `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>${requestId()}</RequestID></Response>`, retryAfter);
    }
    return xml(400, `<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>${requestId()}</RequestId></ErrorResponse>`, retryAfter);
  },
};

function soapFault(faultString: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '<soapenv:Body><soapenv:Fault><faultcode>ServerFaultCode</faultcode>',
    `<faultstring>${faultString}</faultstring>`,
    '<detail><SystemErrorFault xmlns="urn:vim25" xsi:type="SystemError"><reason>injected by the chaos proxy</reason></SystemErrorFault></detail>',
    '</soapenv:Fault></soapenv:Body></soapenv:Envelope>',
  ].join('');
}

/** vSphere: a SOAP `SystemError` fault (500); when overloaded vCenter answers 503 Service Unavailable. */
export const VSPHERE_FAULTS: CloudFaultFlavor = {
  name: 'vsphere',
  serverError: () => xml(500, soapFault('A general system error occurred: injected by the chaos proxy')),
  throttle: (_request, retryAfterSeconds) => ({ status: 503, headers: { 'content-type': 'text/plain', 'retry-after': String(retryAfterSeconds) }, body: 'Service Unavailable' }),
};

function json(status: number, body: unknown, extra: Record<string, string> = {}): FaultResponse {
  return { status, headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) };
}

/** The sandbox cloud's own error body (`SandboxCloudError.toBody()`): `InternalError` 500, `Throttling` 429. */
export const SANDBOX_FAULTS: CloudFaultFlavor = {
  name: 'sandbox',
  serverError: () => json(500, { error: { code: 'InternalError', message: 'injected by the chaos proxy' } }),
  throttle: (_request, retryAfterSeconds) => json(429, { error: { code: 'Throttling', message: 'rate limit exceeded (injected by the chaos proxy)' } }, { 'retry-after': String(retryAfterSeconds) }),
};

/** kube-apiserver: a `Status` object; throttling is 429 `TooManyRequests` with Retry-After. */
export const KUBE_API_FAULTS: CloudFaultFlavor = {
  name: 'kube-apiserver',
  serverError: () => json(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'injected by the chaos proxy', reason: 'InternalError', code: 500 }),
  throttle: (_request, retryAfterSeconds) =>
    json(429, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too many requests (injected by the chaos proxy)', reason: 'TooManyRequests', details: { retryAfterSeconds }, code: 429 }, { 'retry-after': String(retryAfterSeconds) }),
};

/** OAuth2 token endpoints (Google's `token-url`, Entra's `/oauth2/.../token`) answer OAuth errors, not the API's. */
function oauthError(status: number, error: string, description: string, extra: Record<string, string> = {}): FaultResponse {
  return json(status, { error, error_description: description }, extra);
}

const isGoogleTokenRequest = (request: ProxiedRequest): boolean => /\/token(?:\?|$)/.test(request.path) && !request.path.includes('/compute/');

/**
 * Throttling variants alternate per flavor (403 then 429 for GCE, `TooManyRequests` then
 * `SubscriptionRequestsThrottled` for ARM): both are what the cloud sends, and the CCM must treat both as throttling.
 */
function alternating(): () => boolean {
  let next = false;
  return () => {
    next = !next;
    return next;
  };
}

function gceError(code: number, reason: string, message: string, status: string, domain = 'global'): unknown {
  return { error: { code, message, errors: [{ message, domain, reason }], status } };
}

const gceFirstVariant = alternating();

/**
 * GCE Compute (the simulator's `GceError.toBody()` shape): 503 `backendError`; throttling is 403
 * `rateLimitExceeded` (domain `usageLimits`, per-user rate) or 429 `rateLimitExceeded`
 * (`RESOURCE_EXHAUSTED`, quota per minute), both with Retry-After. The token endpoint answers OAuth errors.
 */
export const GCE_FAULTS: CloudFaultFlavor = {
  name: 'gcp',
  serverError(request) {
    if (isGoogleTokenRequest(request)) return oauthError(503, 'temporarily_unavailable', 'injected by the chaos proxy');
    return json(503, gceError(503, 'backendError', 'Internal error. Please try again (injected by the chaos proxy).', 'UNAVAILABLE'));
  },
  throttle(request, retryAfterSeconds) {
    const retryAfter = { 'retry-after': String(retryAfterSeconds) };
    if (isGoogleTokenRequest(request)) return oauthError(429, 'rate_limit_exceeded', 'Rate Limit Exceeded (injected by the chaos proxy)', retryAfter);
    if (gceFirstVariant()) return json(403, gceError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', 'PERMISSION_DENIED', 'usageLimits'), retryAfter);
    return json(429, gceError(429, 'rateLimitExceeded', "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' (injected by the chaos proxy).", 'RESOURCE_EXHAUSTED', 'usageLimits'), retryAfter);
  },
};

const isEntraRequest = (request: ProxiedRequest): boolean => request.path.includes('/oauth2/');
const armFirstVariant = alternating();
const armServerErrorFirstVariant = alternating();

/**
 * Azure Resource Manager (`{"error":{"code","message"}}`, the simulator's `ArmError.toBody()`):
 * 500 `InternalServerError` or 503 `ServiceUnavailable`; throttling is 429 `TooManyRequests` or
 * `SubscriptionRequestsThrottled` with Retry-After. Entra's token endpoint answers OAuth errors
 * (`temporarily_unavailable`, with AADSTS codes).
 */
export const ARM_FAULTS: CloudFaultFlavor = {
  name: 'azure',
  serverError(request) {
    if (isEntraRequest(request)) return oauthError(503, 'temporarily_unavailable', 'AADSTS90033: A transient error has occurred. Please try again. (injected by the chaos proxy)');
    if (armServerErrorFirstVariant()) return json(500, { error: { code: 'InternalServerError', message: 'Encountered internal server error (injected by the chaos proxy).' } }, { 'x-ms-request-id': requestId() });
    return json(503, { error: { code: 'ServiceUnavailable', message: 'The service is temporarily unavailable (injected by the chaos proxy).' } }, { 'x-ms-request-id': requestId(), 'retry-after': '1' });
  },
  throttle(request, retryAfterSeconds) {
    const retryAfter = { 'retry-after': String(retryAfterSeconds) };
    if (isEntraRequest(request)) return oauthError(429, 'temporarily_unavailable', 'AADSTS50196: The server terminated an operation because it encountered a client request loop (injected by the chaos proxy).', retryAfter);
    const code = armFirstVariant() ? 'TooManyRequests' : 'SubscriptionRequestsThrottled';
    const message =
      code === 'TooManyRequests'
        ? 'The request is being throttled as the limit has been reached for operation type (injected by the chaos proxy).'
        : "Number of requests for subscription exceeded the limit of '1200' for time interval '01:00:00' (injected by the chaos proxy).";
    return json(429, { error: { code, message } }, { ...retryAfter, 'x-ms-request-id': requestId() });
  },
};

/** Which OpenStack service a request is for: `/svc/<service type>/...` behind a catalog router, else Keystone. */
function openStackService(request: ProxiedRequest): 'compute' | 'network' | 'load-balancer' | 'identity' {
  const match = /\/svc\/(compute|network|load-balancer)\//.exec(request.path);
  return (match?.[1] as 'compute' | 'network' | 'load-balancer' | undefined) ?? 'identity';
}

/**
 * OpenStack, each service in its own fault shape: Nova `{"computeFault": {...}}` (500) and
 * `{"overLimit": {...}}`, Neutron `{"NeutronError": {type, message, detail}}`, Octavia's WSME
 * `{"faultcode", "faultstring", "debuginfo"}`, Keystone `{"error": {code, message, title}}`.
 * Throttling is 429 with Retry-After, as the rate-limiting middleware in front of the APIs answers.
 */
export const OPENSTACK_FAULTS: CloudFaultFlavor = {
  name: 'openstack',
  serverError(request) {
    const message = 'An unexpected error prevented the server from fulfilling your request (injected by the chaos proxy).';
    switch (openStackService(request)) {
      case 'compute':
        return json(500, { computeFault: { code: 500, message } });
      case 'network':
        return json(500, { NeutronError: { type: 'HTTPInternalServerError', message, detail: '' } });
      case 'load-balancer':
        return json(500, { faultcode: 'Server', faultstring: message, debuginfo: null });
      default:
        return json(500, { error: { code: 500, message, title: 'Internal Server Error' } });
    }
  },
  throttle(request, retryAfterSeconds) {
    const retryAfter = { 'retry-after': String(retryAfterSeconds) };
    const message = 'Too many requests (injected by the chaos proxy).';
    switch (openStackService(request)) {
      case 'compute':
        return json(429, { overLimit: { code: 429, message, retryAfter: String(retryAfterSeconds) } }, retryAfter);
      case 'network':
        return json(429, { NeutronError: { type: 'OverQuota', message, detail: '' } }, retryAfter);
      case 'load-balancer':
        return json(429, { faultcode: 'Client', faultstring: message, debuginfo: null }, retryAfter);
      default:
        return json(429, { error: { code: 429, message, title: 'Too Many Requests' } }, retryAfter);
    }
  },
};
