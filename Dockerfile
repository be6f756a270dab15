# syntax=docker/dockerfile:1
# One recipe for every provider's cloud controller manager image, for people with a Docker engine:
# one self-contained esbuild bundle of @ccm/cloud-provider-<PROVIDER> on distroless Node.js 24,
# running as the non-root user 65532 (no shell, no package manager, no node_modules).
#
# Without a Docker engine, `pnpm image build --provider <cloud>` builds the same image (same Node
# major, user, entrypoint and labels; scripts/image/dockerfile.test.ts keeps them in step)
# reproducibly from pinned inputs: see docs/deploying.md.
#
# Build with the repository root as the context (the build needs the whole pnpm workspace):
#   docker build --build-arg PROVIDER=aws -t ghcr.io/ccm-ts/aws-cloud-controller-manager:v0.1.0 .
# PROVIDER: sandbox, aws, gcp, azure, openstack or vsphere.
# Optional build arguments: VERSION, REVISION (git commit), CREATED (RFC 3339 date), SOURCE_URL,
# DESCRIPTION.
ARG PROVIDER

# ---- build: install the workspace, compile the provider and what it depends on, bundle the bin
FROM node:24-bookworm-slim AS build
ARG PROVIDER
RUN test -n "${PROVIDER}" || { echo "set --build-arg PROVIDER=<sandbox|aws|gcp|azure|openstack|vsphere>" >&2; exit 1; }
# pnpm from npm, pinned to the root package.json "packageManager" (corepack's signature check fails
# against some registries/mirrors).
ARG PNPM_VERSION=10.34.8
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1 \
    npm_config_update_notifier=false
RUN npm install --global --no-fund --no-audit pnpm@${PNPM_VERSION}
WORKDIR /src
# Dependencies first: this layer is reused until the lockfile changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
# Then the sources (.dockerignore keeps node_modules, dist, bundle and .git out of the context).
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@ccm/cloud-provider-${PROVIDER}... --output-logs=errors-only
RUN node scripts/bundle-provider.mjs providers/cloud-provider-${PROVIDER}

# ---- runtime: node and the bundle only
FROM gcr.io/distroless/nodejs24-debian12:nonroot AS runtime
ARG PROVIDER
ARG VERSION=0.1.0
ARG REVISION=
ARG CREATED=
ARG SOURCE_URL=https://github.com/ccm-ts/ccm-ts
ARG DESCRIPTION="${PROVIDER} cloud controller manager for Kubernetes (a TypeScript port of k8s.io/cloud-provider)"
LABEL org.opencontainers.image.title="${PROVIDER}-cloud-controller-manager" \
      org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.documentation="${SOURCE_URL}/tree/main/providers/cloud-provider-${PROVIDER}" \
      org.opencontainers.image.vendor="ccm-ts" \
      org.opencontainers.image.base.name="gcr.io/distroless/nodejs24-debian12:nonroot"
WORKDIR /app
COPY --from=build /src/providers/cloud-provider-${PROVIDER}/bundle/${PROVIDER}-cloud-controller-manager.mjs /src/providers/cloud-provider-${PROVIDER}/bundle/${PROVIDER}-cloud-controller-manager.mjs.map /app/
# The distroless "nonroot" user; matches runAsUser/runAsGroup in manifests/base/deployment.yaml.
USER 65532:65532
# The secure port: /healthz, /metrics (the webhook port 10260 is only used when enabled).
EXPOSE 10258

# ---- one final stage per provider: only ENTRYPOINT differs (Docker does not expand ARGs in it)
FROM runtime AS sandbox
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/sandbox-cloud-controller-manager.mjs"]
FROM runtime AS aws
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/aws-cloud-controller-manager.mjs"]
FROM runtime AS gcp
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/gcp-cloud-controller-manager.mjs"]
FROM runtime AS azure
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/azure-cloud-controller-manager.mjs"]
FROM runtime AS openstack
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/openstack-cloud-controller-manager.mjs"]
FROM runtime AS vsphere
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/vsphere-cloud-controller-manager.mjs"]

# The image: the stage named by PROVIDER.
FROM ${PROVIDER}
