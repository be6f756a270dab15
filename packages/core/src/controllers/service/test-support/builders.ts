/**
 * Test object builders with tweaks, like upstream's `newService(name, type, tweaks...)` and
 * `makeNode(tweaks...)`.
 */
import type { V1Node, V1Service } from '@kubernetes/client-node';

export type ServiceTweak = (service: V1Service) => void;
export type NodeTweak = (node: V1Node) => void;

export const PROVIDER_ID = 'providerID';

/** A service in `default` with one TCP port 80 (upstream `newService`). */
export function newService(name: string, type: string, ...tweaks: ServiceTweak[]): V1Service {
  const service: V1Service = {
    metadata: { name, namespace: 'default' },
    spec: { type, ports: [{ port: 80, protocol: 'TCP' }] },
  };
  for (const tweak of tweaks) tweak(service);
  return service;
}

export const defaultExternalService = (): V1Service => newService('external-balancer', 'LoadBalancer');

export function copyService(service: V1Service, ...tweaks: ServiceTweak[]): V1Service {
  const copy = structuredClone(service);
  for (const tweak of tweaks) tweak(copy);
  return copy;
}

export const tweakPorts =
  (protocol: string, targetPort = 0): ServiceTweak =>
  (service) => {
    service.spec = { ...service.spec, ports: [{ port: 80, protocol, ...(targetPort > 0 ? { targetPort } : {}) }] };
  };
export const tweakLoadBalancerClass =
  (loadBalancerClass: string): ServiceTweak =>
  (service) => {
    service.spec = { ...service.spec, loadBalancerClass };
  };
export const tweakFinalizers =
  (...finalizers: string[]): ServiceTweak =>
  (service) => {
    service.metadata = { ...service.metadata, finalizers };
  };
export const tweakDeletionTimestamp =
  (time: Date = new Date()): ServiceTweak =>
  (service) => {
    service.metadata = { ...service.metadata, deletionTimestamp: time };
  };
export const tweakIngress =
  (ip: string): ServiceTweak =>
  (service) => {
    service.status = { loadBalancer: { ingress: [{ ip }] } };
  };
export const tweakExternalTrafficPolicy =
  (policy: 'Local' | 'Cluster'): ServiceTweak =>
  (service) => {
    service.spec = { ...service.spec, externalTrafficPolicy: policy };
  };
export const tweakAppProtocol =
  (appProtocol: string): ServiceTweak =>
  (service) => {
    const ports = service.spec?.ports ?? [];
    if (ports[0] !== undefined) ports[0].appProtocol = appProtocol;
  };
export const tweakIpFamilies =
  (...families: string[]): ServiceTweak =>
  (service) => {
    service.spec = { ...service.spec, ipFamilies: families };
  };
export const tweakAnnotation =
  (key: string, value: string): ServiceTweak =>
  (service) => {
    service.metadata = { ...service.metadata, annotations: { ...service.metadata?.annotations, [key]: value } };
  };

/** A Ready node named `node` with providerID `providerID` (upstream `makeNode`). */
export function makeNode(...tweaks: NodeTweak[]): V1Node {
  const node: V1Node = {
    metadata: { name: 'node', labels: {} },
    spec: { taints: [], providerID: PROVIDER_ID },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
  for (const tweak of tweaks) tweak(node);
  return node;
}

export const tweakName =
  (name: string): NodeTweak =>
  (node) => {
    node.metadata = { ...node.metadata, name };
  };
export const tweakTaint =
  (key: string): NodeTweak =>
  (node) => {
    node.spec = { ...node.spec, taints: [...(node.spec?.taints ?? []), { key, effect: 'NoSchedule' }] };
  };
export const tweakLabel =
  (key: string, value: string): NodeTweak =>
  (node) => {
    node.metadata = { ...node.metadata, labels: { ...node.metadata?.labels, [key]: value } };
  };
export const tweakCondition =
  (type: string, status: string): NodeTweak =>
  (node) => {
    const conditions = (node.status?.conditions ?? []).filter((condition) => condition.type !== type);
    const index = (node.status?.conditions ?? []).findIndex((condition) => condition.type === type);
    const next = { type, status };
    if (index === -1) conditions.push(next);
    else conditions.splice(index, 0, next);
    node.status = { ...node.status, conditions };
  };
export const tweakReady = (ready: boolean): NodeTweak => tweakCondition('Ready', ready ? 'True' : 'False');
/** Renames the condition (upstream's "hacky but easy" unset). */
export const tweakUnsetCondition =
  (type: string): NodeTweak =>
  (node) => {
    node.status = { ...node.status, conditions: (node.status?.conditions ?? []).map((condition) => (condition.type === type ? { ...condition, type: 'SomethingElse' } : condition)) };
  };
export const tweakDeleted =
  (time: Date = new Date()): NodeTweak =>
  (node) => {
    node.metadata = { ...node.metadata, deletionTimestamp: time };
  };
export const tweakProviderId =
  (providerId: string): NodeTweak =>
  (node) => {
    node.spec = { ...node.spec, providerID: providerId };
  };
