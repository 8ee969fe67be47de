#!/bin/sh
# SHA-256 checksums of release files, in the form `sha256sum -c` and
# `shasum -a 256 -c` read: one line, the sum and the file's name.
#
#   dist/checksum.sh FILE...        writes FILE.sha256 beside each FILE
#   dist/checksum.sh --check DIR    checks every DIR/*.sha256 and prints, one a
#                                   line, each file and its checksum file (the
#                                   release workflow attaches what it prints)
set -eu

sum() {
  if command -v sha256sum > /dev/null 2>&1; then
    sha256sum "$@"
  else
    shasum -a 256 "$@"
  fi
}

[ $# -ge 1 ] || { echo "usage: $0 FILE... | --check DIR" >&2; exit 2; }
if [ "$1" != --check ]; then
  for file in "$@"; do
    (cd "$(dirname "$file")" && sum "${file##*/}") > "$file.sha256.tmp"
    mv -f "$file.sha256.tmp" "$file.sha256"
  done
  exit 0
fi

[ $# -eq 2 ] || { echo "usage: $0 --check DIR" >&2; exit 2; }
dir=$(cd "$2" && pwd -P)
found=0
for check in "$dir"/*.sha256; do
  [ -f "$check" ] || continue
  read -r expected file < "$check"
  if [ "$file" != "$(basename "$check" .sha256)" ]; then
    echo "aii: $check names $file, not $(basename "$check" .sha256)" >&2
    exit 1
  fi
  if [ ! -f "$dir/$file" ]; then
    echo "aii: $check: no $file beside it" >&2
    exit 1
  fi
  read -r actual _ <<END
$(cd "$dir" && sum "$file")
END
  if [ "$actual" != "$expected" ]; then
    echo "aii: $file: checksum $actual, but $check says $expected" >&2
    exit 1
  fi
  printf '%s\n%s\n' "$dir/$file" "$check"
  found=$((found + 1))
done
if [ "$found" -eq 0 ]; then
  echo "aii: no .sha256 file in $dir" >&2
  exit 1
fi
