{{/*
The Deployment of manifests/base with the provider overlay's args and cloud-config volume: the
flags that other objects depend on (--cloud-provider, --cloud-config, leader election, the secure
port) come from their values; .Values.args and .Values.extraArgs follow them.
*/}}
{{- define "ccm-common.deployment" -}}
{{- $cloudConfig := .Values.cloudConfig -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  {{- include "ccm-common.namespacedMetadata" (dict "name" .Values.name "context" .) | nindent 2 }}
spec:
  replicas: {{ .Values.replicas }}
  revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}
  {{- with .Values.updateStrategy }}
  strategy:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "ccm-common.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "ccm-common.selectorLabels" . | nindent 8 }}
        {{- with .Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- if or .Values.podAnnotations (and $cloudConfig.enabled $cloudConfig.create) }}
      annotations:
        {{- if and $cloudConfig.enabled $cloudConfig.create }}
        # A new cloud-config rolls the pods, as kustomize's name suffix does.
        checksum/cloud-config: {{ $cloudConfig.content | sha256sum }}
        {{- end }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- end }}
    spec:
      serviceAccountName: {{ .Values.serviceAccount.name }}
      {{- with .Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      hostNetwork: {{ .Values.hostNetwork }}
      {{- with .Values.dnsPolicy }}
      dnsPolicy: {{ . }}
      {{- end }}
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.podSecurityContext }}
      securityContext:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: cloud-controller-manager
          image: {{ include "ccm-common.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          args:
            - --cloud-provider={{ include "ccm.cloudProvider" . }}
            {{- if $cloudConfig.enabled }}
            - --cloud-config={{ include "ccm-common.cloudConfigPath" . }}
            {{- end }}
            {{- if .Values.leaderElection.enabled }}
            - --leader-elect=true
            - --leader-elect-resource-namespace={{ .Values.namespace }}
            - --leader-elect-resource-name={{ .Values.leaderElection.leaseName }}
            {{- else }}
            - --leader-elect=false
            {{- end }}
            - --secure-port={{ .Values.securePort }}
            {{- range .Values.args }}
            - {{ . | quote }}
            {{- end }}
            {{- range $flag, $value := .Values.extraArgs }}
            - {{ printf "--%s=%v" $flag $value | quote }}
            {{- end }}
          {{- with .Values.env }}
          env:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            - name: https
              containerPort: {{ .Values.securePort }}
              protocol: TCP
          {{- with .Values.livenessProbe }}
          livenessProbe:
            {{- include "ccm-common.probe" (dict "probe" . "port" $.Values.securePort) | nindent 12 }}
          {{- end }}
          {{- with .Values.readinessProbe }}
          readinessProbe:
            {{- include "ccm-common.probe" (dict "probe" . "port" $.Values.securePort) | nindent 12 }}
          {{- end }}
          {{- with .Values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- with .Values.securityContext }}
          securityContext:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            # Node's scratch space: the root filesystem is read-only.
            - name: tmp
              mountPath: /tmp
            {{- if $cloudConfig.enabled }}
            - name: cloud-config
              mountPath: {{ $cloudConfig.mountPath }}
              readOnly: true
            {{- end }}
            {{- with .Values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            medium: Memory
            sizeLimit: {{ .Values.tmpSizeLimit }}
        {{- if $cloudConfig.enabled }}
        {{- include "ccm-common.cloudConfigVolume" . | nindent 8 }}
        {{- end }}
        {{- with .Values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
{{- end }}

{{/* A probe of the secure port: an httpGet without a port gets securePort. */}}
{{- define "ccm-common.probe" -}}
{{- $probe := deepCopy .probe -}}
{{- if and (hasKey $probe "httpGet") (not (hasKey $probe.httpGet "port")) -}}
{{- $_ := set $probe.httpGet "port" .port -}}
{{- end -}}
{{- toYaml $probe -}}
{{- end }}
