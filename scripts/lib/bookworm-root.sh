# The bare Debian that scripts/test-package (a chroot) and scripts/test-image (the container
# image's base, tagged debian:bookworm-slim) both start from: bookworm by debootstrap
# --variant=minbase, made once per checkout in .build/bookworm-minbase (about 180 MB, a minute
# or two from the mirror) and only read afterwards. Sourced, not run; needs root and debootstrap.
#
#   bookworm_root CHECKOUT   prints the folder, making it first when it is not complete
#   DEBIAN_MIRROR            the mirror (default http://deb.debian.org/debian)

bookworm_root() {
  local root="$1/.build/bookworm-minbase"
  local log="$1/.build/bookworm-minbase.log"
  local mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  if [ ! -f "$root/.complete" ]; then
    command -v debootstrap > /dev/null || { echo "bookworm-root: needs debootstrap (scripts/install-deps)" >&2; return 1; }
    echo "bookworm-root: debootstrap --variant=minbase bookworm into $root (once per checkout)" >&2
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    debootstrap --variant=minbase bookworm "$root" "$mirror" > "$log" 2>&1 \
      || { tail -20 "$log" >&2; return 1; }
    touch "$root/.complete"
  fi
  echo "$root"
}
