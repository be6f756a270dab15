# The KEP entry points every provider shares; each providers/cloud-provider-<cloud>/Makefile sets
# CLOUD, includes this file and adds its cloud's own targets (test-moto, test-e2e, ...).
# Everything delegates to pnpm at the repository root.
#
#   CLOUD       the cloud: aws, gcp, ... (required)
#   TEST_PATHS  what `make test` runs (default: the provider folder)
ifndef CLOUD
$(error set CLOUD (aws, gcp, ...) before including provider.mk)
endif

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
PROVIDER := providers/cloud-provider-$(CLOUD)
PACKAGE := @ccm/cloud-provider-$(CLOUD)
TEST_PATHS ?= $(PROVIDER)

.PHONY: build test bundle docs image

# The provider, its conformance driver (dist-test/) and what they depend on.
build:
	cd $(ROOT) && TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 pnpm exec turbo run build --filter=$(PACKAGE)... --output-logs=errors-only

# Every test of the provider (TEST_PATHS).
test: build
	cd $(ROOT) && pnpm exec vitest run $(TEST_PATHS)

# The container image's single-file bundle: bundle/$(CLOUD)-cloud-controller-manager.mjs.
bundle: build
	cd $(ROOT) && node scripts/bundle-provider.mjs $(PROVIDER)

# Regenerates the provider's generated pages in docs/ (scripts/generate-docs.mjs).
docs: build
	cd $(ROOT) && pnpm --filter $(PACKAGE) run docs

# The container image, built without a container engine from pinned inputs (docs/deploying.md):
# .images/$(CLOUD)/oci (OCI layout), .images/$(CLOUD)/image.tar (docker/podman load), .images/$(CLOUD)/sbom.spdx.json.
image: build
	cd $(ROOT) && node scripts/image/image-cli.mjs build --provider $(CLOUD)
