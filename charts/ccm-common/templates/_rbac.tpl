{{/*
The ServiceAccount and least-privilege RBAC of manifests/base (docs/rbac.md says which controller
needs which verb), plus the provider's Roles (rbac.roles) and any rbac.extraClusterRoleRules.
*/}}
{{- define "ccm-common.serviceAccount" -}}
{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" .Values.serviceAccount.name "context" .) | nindent 2 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- end }}

{{/* A binding's only subject: the CCM's ServiceAccount. */}}
{{- define "ccm-common.subjects" -}}
subjects:
  - kind: ServiceAccount
    name: {{ .Values.serviceAccount.name }}
    namespace: {{ .Values.namespace }}
{{- end }}

{{- define "ccm-common.rbac" -}}
{{- if .Values.rbac.create }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Values.rbac.clusterRoleName }}
  labels:
    {{- include "ccm-common.labels" . | nindent 4 }}
rules:
  # Informers list and watch nodes and services; get re-reads an object before a conflict retry.
  # Node initialization (update), labels and taints (patch), deletion of nodes whose instance is gone.
  - apiGroups: [""]
    resources: ["nodes"]
    verbs: ["get", "list", "watch", "update", "patch", "delete"]
  # Node addresses and the NetworkUnavailable condition.
  - apiGroups: [""]
    resources: ["nodes/status"]
    verbs: ["patch"]
  # The load-balancer-cleanup finalizer and the load balancer status: services are only patched.
  - apiGroups: [""]
    resources: ["services"]
    verbs: ["list", "watch", "patch"]
  - apiGroups: [""]
    resources: ["services/status"]
    verbs: ["patch"]
  # The event recorder creates core/v1 events and patches repeats.
  - apiGroups: [""]
    resources: ["events"]
    verbs: ["create", "patch"]
  # Delegated authentication and authorization of the secure port.
  - apiGroups: ["authentication.k8s.io"]
    resources: ["tokenreviews"]
    verbs: ["create"]
  - apiGroups: ["authorization.k8s.io"]
    resources: ["subjectaccessreviews"]
    verbs: ["create"]
  {{- with .Values.rbac.extraClusterRoleRules }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ .Values.rbac.clusterRoleName }}
  labels:
    {{- include "ccm-common.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ .Values.rbac.clusterRoleName }}
{{ include "ccm-common.subjects" . }}
{{- if .Values.leaderElection.enabled }}
---
# Leader election on the Lease <namespace>/<leaderElection.leaseName>, and leader migration on
# cloud-provider-extraction-migration only (create cannot be limited by resourceNames).
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" (printf "%s:leader-election" .Values.name) "context" .) | nindent 2 }}
rules:
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    verbs: ["create"]
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    resourceNames: [{{ .Values.leaderElection.leaseName | quote }}]
    verbs: ["get", "update"]
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    resourceNames: ["cloud-provider-extraction-migration"]
    verbs: ["get", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" (printf "%s:leader-election" .Values.name) "context" .) | nindent 2 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ printf "%s:leader-election" .Values.name }}
{{ include "ccm-common.subjects" . }}
{{- end }}
---
# The built-in Role that reads the extension-apiserver-authentication ConfigMap (the client CA and
# request-header settings of delegated authentication). It exists in kube-system only.
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ printf "%s:apiserver-authentication-reader" .Values.name }}
  namespace: kube-system
  labels:
    {{- include "ccm-common.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: extension-apiserver-authentication-reader
{{ include "ccm-common.subjects" . }}
{{- range .Values.rbac.roles }}
{{- if or (not .name) (not .rules) }}
{{- fail (printf "rbac.roles: every entry needs a name and rules, got %s" (toJson .)) }}
{{- end }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" .name "context" $) | nindent 2 }}
rules:
  {{- toYaml .rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" .name "context" $) | nindent 2 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ .name }}
{{ include "ccm-common.subjects" $ }}
{{- end }}
{{- end }}
{{- end }}
