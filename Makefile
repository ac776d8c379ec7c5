# make release VERSION=0.2.0 builds the release into dist/ (removed first):
# static binaries for linux, darwin and windows on amd64 and arm64, their
# archives, SHA256SUMS and the npm packages (internal/release). TARGETS=host
# builds this machine's only.
VERSION ?=
TARGETS ?= all
OUT ?= dist

.PHONY: release
release:
	@test -n "$(VERSION)" || { echo "make release: give VERSION, e.g. make release VERSION=0.2.0" >&2; exit 2; }
	rm -rf $(OUT)
	CGO_ENABLED=0 go run ./internal/release -version $(VERSION) -targets $(TARGETS) -out $(OUT)
