# The bundled samples run where users run stepimport, each compared with what the build
# machine's own binary (the same code) prints: scripts/test-package (the .deb in a bare Debian)
# and scripts/test-image (the container image) share them. Sourced, not run; the sourcing
# script defines step and fail.

# One case an element, its arguments separated by |; files as the checkout names them
# (samples/...), which the runner maps to where it put them.
sample_cases=(
  "apple|samples/export.zip"
  "apple|samples/export.zip|--format|json"
  "apple|samples/export.zip|--format|csv|--by-source"
  "apple|samples/export.zip|--metric|all|--format|csv|--tz|Europe/Berlin"
  "hc|samples/Health Connect.zip"
  "hc|samples/Health Connect.zip|--format|json|--metric|steps"
  "hc|samples/Health Connect.zip|--metric|all|--format|csv"
  "hc|samples/hc-react-native.json|--format|csv"
  "inspect|samples/export.zip|--format|json"
  "batch|samples/batch.csv|--jobs|2"
)

# inspect's JSON says where it read from (the folder is the runner's) and how long it took: the
# rest must be the same.
comparable_output() {
  if [ "$1" = inspect ]; then
    python3 -c '
import json, os, sys
d = json.load(sys.stdin)
for k in ("input", "timing"):
    d.pop(k, None)
for location in d.get("locations") or []:
    location["path"] = os.path.basename(location["path"])
print(json.dumps(d, sort_keys=True))'
  else
    cat
  fi
}

# run_sample_cases REFERENCE RUNNER...: every case through RUNNER (a command given the case's
# arguments; its standard output is compared) and through the binary REFERENCE in the checkout.
run_sample_cases() {
  local reference="$1" case there here
  shift
  local args=()
  for case in "${sample_cases[@]}"; do
    IFS='|' read -r -a args <<< "$case"
    step "stepimport ${args[*]}"
    there="$("$@" "${args[@]}" 2> /dev/null | comparable_output "${args[0]}")" || fail "stepimport ${args[*]}"
    here="$("$reference" "${args[@]}" 2> /dev/null | comparable_output "${args[0]}")"
    [ -n "$here" ] || fail "stepimport ${args[*]} printed nothing on the build machine"
    [ "$there" = "$here" ] \
      || { diff <(echo "$here") <(echo "$there") | head -20 >&2; fail "stepimport ${args[*]} differs from the build's"; }
  done
}
