{{/*
Shared helpers of the ccm-ts cloud controller manager charts. Every template here is called with
the application chart's own context (.Values, .Chart, .Release are the provider chart's), and
expects that chart to define "ccm.cloudProvider" (the --cloud-provider name).
*/}}

{{/* The labels the pods are selected by: the Deployment's selector, the PodDisruptionBudget's. */}}
{{- define "ccm-common.selectorLabels" -}}
app.kubernetes.io/name: {{ .Values.name }}
{{- end }}

{{/*
The labels of every object: the kustomize base's two (manifests/base/kustomization.yaml), then
Helm's own four, then commonLabels.
*/}}
{{- define "ccm-common.labels" -}}
{{ include "ccm-common.selectorLabels" . }}
app.kubernetes.io/part-of: ccm-ts
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* metadata.name, namespace and labels of a namespaced object named by the argument's "name". */}}
{{- define "ccm-common.namespacedMetadata" -}}
name: {{ .name }}
namespace: {{ .context.Values.namespace }}
labels:
  {{- include "ccm-common.labels" .context | nindent 2 }}
{{- end }}

{{/* The image reference: repository@digest when a digest is set, else repository:tag (tag defaults to the chart's appVersion). */}}
{{- define "ccm-common.image" -}}
{{- $image := .Values.image -}}
{{- if $image.digest -}}
{{- if not (regexMatch "^sha256:[0-9a-f]{64}$" $image.digest) -}}
{{- fail (printf "image.digest must be sha256:<64 hex digits>, not %q" $image.digest) -}}
{{- end -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (toString ($image.tag | default .Chart.AppVersion)) -}}
{{- end -}}
{{- end }}

{{/* The path of the cloud-config file in the container (what --cloud-config names). */}}
{{- define "ccm-common.cloudConfigPath" -}}
{{- printf "%s/%s" (trimSuffix "/" .Values.cloudConfig.mountPath) .Values.cloudConfig.key -}}
{{- end }}

{{/* Fails with one line naming the value when the cloud-config values do not fit together. */}}
{{- define "ccm-common.validate" -}}
{{- if not (hasKey . "Values") -}}{{- fail "ccm-common templates take the chart's root context (.)" -}}{{- end -}}
{{- $cloudConfig := .Values.cloudConfig -}}
{{- if $cloudConfig.enabled -}}
{{- if not (has $cloudConfig.kind (list "configMap" "secret")) -}}
{{- fail (printf "cloudConfig.kind must be configMap or secret, not %q" (toString $cloudConfig.kind)) -}}
{{- end -}}
{{- if not $cloudConfig.name -}}{{- fail "cloudConfig.name must name the ConfigMap or Secret of the cloud-config" -}}{{- end -}}
{{- if not $cloudConfig.key -}}{{- fail "cloudConfig.key must name the cloud-config file in that ConfigMap or Secret" -}}{{- end -}}
{{- if and $cloudConfig.create (not $cloudConfig.content) -}}
{{- fail "cloudConfig.content is empty: set the cloud-config file's text, or cloudConfig.create=false to mount an existing ConfigMap or Secret" -}}
{{- end -}}
{{- end -}}
{{- if and (not .Values.leaderElection.enabled) (gt (int .Values.replicas) 1) -}}
{{- fail (printf "leaderElection.enabled=false needs replicas: 1, not %d (replicas without leader election would all act on the cloud)" (int .Values.replicas)) -}}
{{- end -}}
{{- range $flag, $value := .Values.extraArgs -}}
{{- if hasPrefix "-" $flag -}}
{{- fail (printf "extraArgs.%s: write the flag name without dashes (extraArgs.%s)" $flag (trimPrefix "-" (trimPrefix "-" $flag))) -}}
{{- end -}}
{{- end -}}
{{- end }}
