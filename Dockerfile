# The team server: innate-mcp serving MCP's Streamable HTTP transport on port
# 8765 (endpoint /mcp, health at /healthz), usually on PostgreSQL:
#
#   docker build -t innate-mcp --build-arg VERSION=0.2.0 .
#   docker run --rm -e INNATE_DB='postgres://innate@db:5432/innate' -e PGPASSWORD innate-mcp token create --name alice --scope write
#   docker run -d -p 8765:8765 -e INNATE_DB='postgres://innate@db:5432/innate' -e PGPASSWORD innate-mcp
#
# Without INNATE_DB the knowledge base is a SQLite file in /data (mount a
# volume there). The image has no shell, so it has no HEALTHCHECK: probe
# GET /healthz over HTTP instead (a Kubernetes httpGet probe, or a load
# balancer's health check), which answers {"status":"ok","version":…}.
# Plain HTTP: terminate TLS in front of it, or mount a certificate and add
# --tls-cert and --tls-key to the command.

# The build runs on the builder's own platform and cross-compiles (pure Go).
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=0.1.0-dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same flags as the release build (internal/release): static, no paths.
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false -ldflags "-s -w -buildid= -X main.version=$VERSION" \
    -o /out/innate-mcp ./cmd/innate-mcp && \
    mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/innate-mcp /usr/local/bin/innate-mcp
COPY --from=build --chown=65532:65532 /out/data /data
ENV XDG_DATA_HOME=/data
VOLUME /data
USER 65532:65532
EXPOSE 8765
ENTRYPOINT ["/usr/local/bin/innate-mcp"]
CMD ["serve", "--http", "0.0.0.0:8765"]
