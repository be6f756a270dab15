{{/*
Everything a provider chart renders: {{ include "ccm-common.manifests" . }} in its one template,
after it defines "ccm.cloudProvider".
*/}}
{{- define "ccm-common.manifests" -}}
{{- include "ccm-common.validate" . }}
{{- $documents := list
  (include "ccm-common.serviceAccount" .)
  (include "ccm-common.rbac" .)
  (include "ccm-common.cloudConfig" .)
  (include "ccm-common.deployment" .)
  (include "ccm-common.podDisruptionBudget" .) -}}
{{- range $documents }}
{{- if trim . }}
---
{{ trim . }}
{{- end }}
{{- end }}
{{- end }}
