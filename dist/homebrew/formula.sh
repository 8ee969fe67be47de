#!/bin/sh
# Prints the Homebrew formula of a release: dist/homebrew/aii.rb with the
# version and the checksum of the macOS tarball filled in, read from the
# tarball's .sha256 file (dist/tarball.sh writes it; the release workflow runs this).
#
#   dist/homebrew/formula.sh aii-<version>-macos-arm64.tar.gz.sha256 > aii.rb
set -eu

[ $# -eq 1 ] || { echo "usage: $0 aii-<version>-macos-arm64.tar.gz.sha256" >&2; exit 2; }
read -r sum file < "$1"
base=${file##*/}
case $base in
  aii-*-macos-arm64.tar.gz) ;;
  *) echo "aii: $1 is not the checksum of a macOS arm64 tarball: it names $file" >&2; exit 1 ;;
esac
version=${base#aii-}
version=${version%-macos-arm64.tar.gz}
if ! printf '%s\n' "$sum" | grep -Eqx '[0-9a-f]{64}'; then
  echo "aii: $1 holds no SHA-256 checksum" >&2
  exit 1
fi
if ! printf '%s\n' "$version" | grep -Eqx '[0-9]+(\.[0-9]+)*([-.][0-9A-Za-z.]+)?'; then
  echo "aii: $version is not a version" >&2
  exit 1
fi
sed -e "s/@VERSION@/$version/g" -e "s/@SHA256@/$sum/g" "$(dirname "$0")/aii.rb"
