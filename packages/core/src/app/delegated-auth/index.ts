/**
 * Delegated authentication and authorization of the secure port (upstream k8s.io/apiserver
 * `DelegatingAuthenticationOptions` / `DelegatingAuthorizationOptions`): small pieces (the
 * authenticators, the authorizers, the pure decision) composed by `createDelegatedAuth`.
 */
export * from './access-decision.js';
export * from './always-allow-paths.js';
export * from './authenticate-request.js';
export * from './authentication-config-map.js';
export * from './authenticator.js';
export * from './authorize-request.js';
export * from './bearer-token.js';
export * from './certificate-bundle.js';
export * from './certificate-file.js';
export * from './client-certificate-authenticator.js';
export * from './client-node-delegated-auth-api.js';
export * from './create-delegated-auth.js';
export * from './delegated-auth-api.js';
export * from './delegated-auth-startup-error.js';
export * from './protect-handler.js';
export * from './request-header-authenticator.js';
export * from './subject-access-reviewer.js';
export * from './token-review-authenticator.js';
export * from './token-reviewer.js';
export * from './user-info.js';
