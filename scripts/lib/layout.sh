# The files of an installed stepimport, under a prefix: the one list that scripts/package (the
# .deb and the tarball) and scripts/install (a build from source) both lay out and remove.
# Sourced, not run.

# Where each shell looks for a completion script, under the prefix.
completion_path() {
  case "$1" in
    bash) echo "share/bash-completion/completions/stepimport" ;;
    zsh) echo "share/zsh/vendor-completions/_stepimport" ;;
    fish) echo "share/fish/vendor_completions.d/stepimport.fish" ;;
  esac
}

# Every file installed under the prefix (the docs' folder apart).
installed_files() {
  echo "bin/stepimport"
  echo "share/man/man1/stepimport.1.gz"
  local shell
  for shell in bash zsh fish; do completion_path "$shell"; done
}

# Installs `binary` ($1) under `prefix` ($2), stripped, with the man page and the completions it
# writes itself (`stepimport man`, `stepimport completions SHELL`).
lay_out_binary() {
  local binary="$1" prefix="$2" shell path
  install -D -m 0755 "$binary" "$prefix/bin/stepimport"
  strip --strip-all "$prefix/bin/stepimport"
  mkdir -p "$prefix/share/man/man1"
  "$prefix/bin/stepimport" man | gzip -9n > "$prefix/share/man/man1/stepimport.1.gz"
  for shell in bash zsh fish; do
    path="$prefix/$(completion_path "$shell")"
    mkdir -p "$(dirname "$path")"
    "$prefix/bin/stepimport" completions "$shell" > "$path"
  done
}

# Copies the docs into `folder` ($1): the README, the licence, the changelog, CONTRIBUTING.md and
# docs/, so that every link of the README resolves where it is installed.
lay_out_docs() {
  local folder="$1"
  mkdir -p "$folder/docs"
  cp README.md LICENSE CHANGELOG.md CONTRIBUTING.md "$folder/"
  cp docs/*.md "$folder/docs/"
}
