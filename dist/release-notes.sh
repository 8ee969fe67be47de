#!/bin/sh
# Prints the release notes of a version: its section of CHANGELOG.md (the
# heading left out), the first `## ` heading that names the version, whole
# (0.11.0) or by its first two numbers (0.11, as in "## Unreleased (0.11)").
#
#   dist/release-notes.sh 0.11.0
set -eu

[ $# -eq 1 ] || { echo "usage: $0 VERSION" >&2; exit 2; }
changelog=$(dirname "$0")/../CHANGELOG.md
short=$(printf '%s\n' "$1" | sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
notes=$(awk -v full="$1" -v short="$short" '
  function names(line, v) {
    if (v == "") return 0
    gsub(/\./, "[.]", v)
    return match(line, "(^|[^0-9.])" v "([^0-9.]|$)") > 0
  }
  /^## / {
    if (found) exit
    if (names($0, full) || names($0, short)) { found = 1; next }
  }
  found { print }
' "$changelog")
if [ -z "$(printf '%s' "$notes" | tr -d ' \n')" ]; then
  echo "aii: CHANGELOG.md has no section for $1" >&2
  exit 1
fi
printf '%s\n' "$notes"
