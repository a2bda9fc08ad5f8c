# The stepimport image of docs/batch.md's Kubernetes Job: Debian's slim base, the .deb that
# scripts/package builds, a non-root user. scripts/test-package runs the same set-up
# (scripts/lib/image-setup.sh) in a bare Debian and tests the result, as no Docker engine runs
# on the build machines. Build and push (docs/batch.md):
#   scripts/package
#   docker build --build-arg VERSION=0.2.0 -t registry.example.com/stepimport:0.2.0 .
#   docker push registry.example.com/stepimport:0.2.0
FROM debian:bookworm-slim
ARG VERSION=0.2.0
COPY dist/stepimport_${VERSION}_amd64.deb scripts/lib/image-setup.sh /tmp/
RUN sh /tmp/image-setup.sh /tmp/stepimport_${VERSION}_amd64.deb && rm /tmp/image-setup.sh
USER 10001:10001
WORKDIR /home/stepimport
ENTRYPOINT ["stepimport"]
CMD ["--help"]
