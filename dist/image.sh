#!/bin/sh
# Builds the prebuilt aii: a directory that runs on a machine without a JDK,
# wherever it is moved. Run after ./mvnw -DskipTests package (make image and
# make dist do).
#
#   dist/image.sh DIR
#
#   bin/aii                    the launcher
#   lib/aii/runtime/           a Java runtime made by jlink, with aii's modules and
#                              the libraries they use linked into it
#   lib/aii/native/            native libraries of aii's modules
#   lib/aii/aot-caches         checks and makes the startup caches (aii --post-install)
#   lib/aii/aii.aot, aii-prompt.aot and their .key files: the startup caches
#   share/man/man1/aii.1, share/bash-completion/completions/aii, share/zsh/site-functions/_aii
#   share/doc/aii/LICENSE, share/doc/aii/licenses/
#                              aii's license and every bundled third-party notice (dist/licenses.sh)
#
# Nothing else is at the top: bin, lib and share only, so that the image can
# also be unpacked into a prefix (~/.local, /usr/local) as it is.
#
# Because aii's modules are in the runtime's own module image, nothing names a
# path the JVM would have to find again: the startup caches made here at the
# end hold where the directory is moved (a module path would not; the JVM
# records it). The first run in a new place checks them once (see
# dist/aot-caches.sh).
#
# The runtime holds the modules that aii's module descriptors require
# (jlink resolves them from dev.aii.cli), checked against what jdeps finds the
# classes use, plus jdk.charsets for servers that answer in other charsets.
# Debug attributes, header files and man pages are left out.
#
# Other modules' natives and notices: a module whose build leaves libraries in
# <module>/target/dist/native/ has them copied to lib/aii/native/ (which the
# launcher puts on java.library.path), and must leave their notices in
# <module>/target/dist/licenses/<component>/. On macOS the Foundation Models
# shim, swift-shim/.build/release/libfmshim.dylib, goes there too when built.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd -P)
target=$src/aii-cli/target
lib=$target/lib
if [ ! -f "$target/man/aii.1" ] || ! ls "$lib"/aii-cli-*.jar > /dev/null 2>&1; then
  echo "aii: not built yet: run make image, or ./mvnw -DskipTests package first" >&2
  exit 1
fi
jdk=$("$src/bin/find-jdk")
image=$1
case $image in
  /*) ;;
  *) image=$(pwd -P)/$image ;;
esac

rm -rf "$image"
mkdir -p "$image/bin" "$image/lib/aii/native" "$image/share/man/man1" \
  "$image/share/bash-completion/completions" "$image/share/zsh/site-functions"
runtime=$image/lib/aii/runtime
"$jdk/bin/jlink" --module-path "$lib" --add-modules dev.aii.cli,jdk.charsets --output "$runtime" \
  --strip-debug --no-man-pages --no-header-files --compress=zip-6
modules=$("$runtime/bin/java" --list-modules | sed 's/@.*//' | sort)

# What the classes use, by jdeps, must all be there: a module its descriptor
# forgot to require would fail only when that class is first used.
work=$(mktemp -d "${TMPDIR:-/tmp}/aii-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%s\n' "$modules" > "$work/linked"
feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release")
"$jdk/bin/jdeps" --multi-release "$feature" --module-path "$lib" --ignore-missing-deps --print-module-deps \
  "$lib"/*.jar | tr ',' '\n' | sort > "$work/used"
missing=$(comm -23 "$work/used" "$work/linked")
if [ -n "$missing" ]; then
  echo "aii: jdeps finds the jars using modules that no descriptor requires: $missing" >&2
  exit 1
fi

for module in "$src"/*/target/dist/native; do
  [ -d "$module" ] || continue
  cp -R "$module/." "$image/lib/aii/native/"
done
if [ "$(uname -s)" = Darwin ] && [ -f "$src/swift-shim/.build/release/libfmshim.dylib" ]; then
  cp "$src/swift-shim/.build/release/libfmshim.dylib" "$image/lib/aii/native/"
fi
mkdir -p "$image/share/doc/aii"
sh "$src/dist/licenses.sh" "$jdk" "$lib" "$runtime" "$image/share/doc/aii"
cp "$src/LICENSE" "$image/share/doc/aii/LICENSE"

cp "$src/dist/aot-caches.sh" "$image/lib/aii/aot-caches"
cp "$src/bin/aii" "$image/bin/aii"
chmod 755 "$image/bin/aii" "$image/lib/aii/aot-caches"
cp "$target/man/aii.1" "$image/share/man/man1/aii.1"
cp "$target/completion/aii.bash" "$image/share/bash-completion/completions/aii"
cp "$target/completion/_aii" "$image/share/zsh/site-functions/_aii"

if ! "$image/bin/aii" --post-install > /dev/null; then
  echo "aii: warning: the image works, but starts slower: its startup caches could not be made" >&2
fi
echo "aii: image in $image (modules: $(printf '%s\n' "$modules" | paste -sd, -)); run $image/bin/aii"
