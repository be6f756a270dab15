{{/*
The cloud-config file: a ConfigMap (or, with cloudConfig.kind=secret, a Secret) rendered from
cloudConfig.content, unless cloudConfig.create=false names an existing one.
*/}}
{{- define "ccm-common.cloudConfig" -}}
{{- $cloudConfig := .Values.cloudConfig -}}
{{- if and $cloudConfig.enabled $cloudConfig.create }}
apiVersion: v1
kind: {{ ternary "Secret" "ConfigMap" (eq $cloudConfig.kind "secret") }}
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" $cloudConfig.name "context" .) | nindent 2 }}
{{- if eq $cloudConfig.kind "secret" }}
type: Opaque
data:
  {{ $cloudConfig.key }}: {{ $cloudConfig.content | b64enc }}
{{- else }}
data:
  {{- dict $cloudConfig.key $cloudConfig.content | toYaml | nindent 2 }}
{{- end }}
{{- end }}
{{- end }}

{{/* The cloud-config volume of the pod. */}}
{{- define "ccm-common.cloudConfigVolume" -}}
- name: cloud-config
{{- if eq .Values.cloudConfig.kind "secret" }}
  secret:
    secretName: {{ .Values.cloudConfig.name }}
{{- else }}
  configMap:
    name: {{ .Values.cloudConfig.name }}
{{- end }}
{{- end }}
