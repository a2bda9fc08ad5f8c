#!/bin/sh
# The container image's set-up, run by the Dockerfile and, the same file, by scripts/test-package
# in its bare Debian: the .deb through apt (its Depends: from Debian's mirror), the CA
# certificates libcurl checks the backend's against, and the non-root user stepimport runs as.
# Usage: image-setup.sh PATH/TO/stepimport_<version>_amd64.deb
set -eu
deb="$1"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" ca-certificates
# What apt downloaded and its lists stay out of the image (Debian's images clean the first
# themselves, other bases may not).
apt-get clean
rm -rf /var/lib/apt/lists/* "$deb"
useradd --uid 10001 --create-home --shell /bin/bash stepimport
