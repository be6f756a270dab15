/**
 * Field numbers of the Kubernetes protobuf messages kubectl's typed generators send
 * (`kubectl create namespace|configmap|secret|service`), from k8s.io/api generated.proto.
 */

export type ScalarKind = 'string' | 'bytes' | 'int' | 'bool' | 'time' | 'intOrString';

export interface FieldSpec {
  name: string;
  kind: ScalarKind | MessageSchema | { map: 'string' | 'bytes' };
  repeated?: boolean;
}

export interface MessageSchema {
  name: string;
  fields: Readonly<Record<number, FieldSpec>>;
  /** Field numbers that are accepted and dropped (the apiserver would discard them too). */
  ignored?: readonly number[];
}

const message = (name: string, fields: Record<number, FieldSpec>, ignored?: number[]): MessageSchema => (ignored ? { name, fields, ignored } : { name, fields });

const ownerReference = message('OwnerReference', {
  1: { name: 'kind', kind: 'string' },
  3: { name: 'name', kind: 'string' },
  4: { name: 'uid', kind: 'string' },
  5: { name: 'apiVersion', kind: 'string' },
  6: { name: 'controller', kind: 'bool' },
  7: { name: 'blockOwnerDeletion', kind: 'bool' },
});

export const objectMeta = message(
  'ObjectMeta',
  {
    1: { name: 'name', kind: 'string' },
    2: { name: 'generateName', kind: 'string' },
    3: { name: 'namespace', kind: 'string' },
    4: { name: 'selfLink', kind: 'string' },
    5: { name: 'uid', kind: 'string' },
    6: { name: 'resourceVersion', kind: 'string' },
    7: { name: 'generation', kind: 'int' },
    8: { name: 'creationTimestamp', kind: 'time' },
    9: { name: 'deletionTimestamp', kind: 'time' },
    10: { name: 'deletionGracePeriodSeconds', kind: 'int' },
    11: { name: 'labels', kind: { map: 'string' } },
    12: { name: 'annotations', kind: { map: 'string' } },
    13: { name: 'ownerReferences', kind: ownerReference, repeated: true },
    14: { name: 'finalizers', kind: 'string', repeated: true },
  },
  // 17: managedFields, which the emulator does not keep.
  [17],
);

const condition = message('Condition', {
  1: { name: 'type', kind: 'string' },
  2: { name: 'status', kind: 'string' },
  3: { name: 'observedGeneration', kind: 'int' },
  4: { name: 'lastTransitionTime', kind: 'time' },
  5: { name: 'reason', kind: 'string' },
  6: { name: 'message', kind: 'string' },
});

const namespace = message('Namespace', {
  1: { name: 'metadata', kind: objectMeta },
  2: { name: 'spec', kind: message('NamespaceSpec', { 1: { name: 'finalizers', kind: 'string', repeated: true } }) },
  3: {
    name: 'status',
    kind: message('NamespaceStatus', {
      1: { name: 'phase', kind: 'string' },
      2: { name: 'conditions', kind: condition, repeated: true },
    }),
  },
});

const configMap = message('ConfigMap', {
  1: { name: 'metadata', kind: objectMeta },
  2: { name: 'data', kind: { map: 'string' } },
  3: { name: 'binaryData', kind: { map: 'bytes' } },
  4: { name: 'immutable', kind: 'bool' },
});

const secret = message('Secret', {
  1: { name: 'metadata', kind: objectMeta },
  2: { name: 'data', kind: { map: 'bytes' } },
  3: { name: 'type', kind: 'string' },
  4: { name: 'stringData', kind: { map: 'string' } },
  5: { name: 'immutable', kind: 'bool' },
});

const servicePort = message('ServicePort', {
  1: { name: 'name', kind: 'string' },
  2: { name: 'protocol', kind: 'string' },
  3: { name: 'port', kind: 'int' },
  4: { name: 'targetPort', kind: 'intOrString' },
  5: { name: 'nodePort', kind: 'int' },
  6: { name: 'appProtocol', kind: 'string' },
});

const serviceSpec = message('ServiceSpec', {
  1: { name: 'ports', kind: servicePort, repeated: true },
  2: { name: 'selector', kind: { map: 'string' } },
  3: { name: 'clusterIP', kind: 'string' },
  4: { name: 'type', kind: 'string' },
  5: { name: 'externalIPs', kind: 'string', repeated: true },
  7: { name: 'sessionAffinity', kind: 'string' },
  8: { name: 'loadBalancerIP', kind: 'string' },
  9: { name: 'loadBalancerSourceRanges', kind: 'string', repeated: true },
  10: { name: 'externalName', kind: 'string' },
  11: { name: 'externalTrafficPolicy', kind: 'string' },
  12: { name: 'healthCheckNodePort', kind: 'int' },
  13: { name: 'publishNotReadyAddresses', kind: 'bool' },
  14: {
    name: 'sessionAffinityConfig',
    kind: message('SessionAffinityConfig', { 1: { name: 'clientIP', kind: message('ClientIPConfig', { 1: { name: 'timeoutSeconds', kind: 'int' } }) } }),
  },
  17: { name: 'ipFamilyPolicy', kind: 'string' },
  18: { name: 'clusterIPs', kind: 'string', repeated: true },
  19: { name: 'ipFamilies', kind: 'string', repeated: true },
  20: { name: 'allocateLoadBalancerNodePorts', kind: 'bool' },
  21: { name: 'loadBalancerClass', kind: 'string' },
  22: { name: 'internalTrafficPolicy', kind: 'string' },
  23: { name: 'trafficDistribution', kind: 'string' },
});

const service = message('Service', {
  1: { name: 'metadata', kind: objectMeta },
  2: { name: 'spec', kind: serviceSpec },
  3: {
    name: 'status',
    kind: message('ServiceStatus', {
      1: {
        name: 'loadBalancer',
        kind: message('LoadBalancerStatus', {
          1: { name: 'ingress', kind: message('LoadBalancerIngress', { 1: { name: 'ip', kind: 'string' }, 2: { name: 'hostname', kind: 'string' } }), repeated: true },
        }),
      },
      2: { name: 'conditions', kind: condition, repeated: true },
    }),
  },
});

/** Messages by `apiVersion/kind`. */
export const protobufSchemas: Readonly<Record<string, MessageSchema>> = {
  'v1/Namespace': namespace,
  'v1/ConfigMap': configMap,
  'v1/Secret': secret,
  'v1/Service': service,
};
