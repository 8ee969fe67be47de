#!/bin/sh
# The release download for this machine: the image of dist/image.sh as
# aii-<version>-<os>-<arch>.tar.gz (linux-x86_64, linux-aarch64, macos-arm64),
# and its checksum in the same name plus .sha256, as `sha256sum -c` reads it.
# Run after ./mvnw -DskipTests package (make dist does).
#
#   dist/tarball.sh OUTDIR     writes OUTDIR/<name>.tar.gz and OUTDIR/<name>.tar.gz.sha256
#   dist/tarball.sh --name     prints <name>, aii-<version>-<os>-<arch>
#   dist/tarball.sh --tag TAG  fails unless TAG is v<version> (a release's tag)
set -eu

src=$(cd "$(dirname "$0")/.." && pwd -P)

# The version of the jars the build made, which `aii --version` prints.
version=""
for jar in "$src"/aii-cli/target/lib/aii-cli-*.jar; do
  [ -f "$jar" ] || break
  version=${jar##*/aii-cli-}
  version=${version%.jar}
done
if [ -z "$version" ]; then
  echo "aii: not built yet: run make dist, or ./mvnw -DskipTests package first" >&2
  exit 1
fi
case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) echo "aii: no prebuilt package for $(uname -s)" >&2; exit 1 ;;
esac
arch=$(uname -m)
case $os-$arch in
  linux-arm64) arch=aarch64 ;;
  macos-aarch64) arch=arm64 ;;
esac
name=aii-$version-$os-$arch

case $# in
  1) ;;
  2) [ "$1" = --tag ] || set -- ;;
  *) set -- ;;
esac
case ${1---usage} in
  --usage) echo "usage: $0 OUTDIR | --name | --tag TAG" >&2; exit 2 ;;
  --name) printf '%s\n' "$name"; exit 0 ;;
  --tag)
    if [ "$2" != "v$version" ]; then
      echo "aii: the tag $2 is not the version that was built, $version (tag v$version)" >&2
      exit 1
    fi
    exit 0 ;;
esac
mkdir -p "$1"
out=$(cd "$1" && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/aii-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT

sh "$src/dist/image.sh" "$work/$name"
# Owned by root in the archive, so that unpacking it as root gives no files
# to the build machine's user id; GNU tar and bsdtar spell that differently.
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  owner="--owner=0 --group=0 --numeric-owner"
else
  owner="--uid 0 --gid 0"
fi
# shellcheck disable=SC2086 # two or three options, split on purpose
(cd "$work" && tar $owner -cf - "$name") | gzip -9 > "$out/$name.tar.gz.tmp"
mv -f "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
sh "$src/dist/checksum.sh" "$out/$name.tar.gz"
size=$(wc -c < "$out/$name.tar.gz" | tr -d ' ')
echo "aii: $out/$name.tar.gz ($((size / 1024)) KiB) and its .sha256"
