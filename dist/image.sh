#!/bin/sh
# Builds a self-contained aii: a directory laid out like an install
# (bin/aii, share/aii/lib, share/man, completion) that also holds a Java
# runtime of its own made by jlink (share/aii/runtime), which the launcher
# prefers to any JDK. Run after ./mvnw -DskipTests package (make image does).
#
#   dist/image.sh DIR
#
# The runtime holds the JDK modules the jars need (the requires closure of
# dev.aii.cli, read from the module descriptors) plus jdk.charsets and
# jdk.crypto.ec for servers with other charsets or elliptic-curve TLS. The
# startup caches are made in place at the end. Moved elsewhere, the image still
# works and starts without them; to make them again there:
#   AII_AOT_OUTPUT=DIR/share/aii/aii.aot DIR/bin/aii short
#   AII_AOT_OUTPUT=DIR/share/aii/aii-prompt.aot DIR/bin/aii prompt
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

# The JDK modules the application's modules require, transitively (service bindings left out).
modules=$("$jdk/bin/java" --module-path "$lib" --show-module-resolution --dry-run -m dev.aii.cli/dev.aii.cli.Main 2>&1 |
  awk '$2 == "requires" { req[$1] = req[$1] " " $3 }
       END {
         todo[1] = "dev.aii.cli"; n = 1; seen["dev.aii.cli"] = 1
         while (n > 0) {
           m = todo[n]; n--
           k = split(req[m], r, " ")
           for (i = 1; i <= k; i++) if (!(r[i] in seen)) { seen[r[i]] = 1; todo[++n] = r[i] }
         }
         out = "java.base"
         for (m in seen) if (m ~ /^(java|jdk)\./ && m != "java.base") out = out "," m
         print out
       }')
modules="$modules,jdk.charsets,jdk.crypto.ec"

rm -rf "$image"
mkdir -p "$image/bin" "$image/share/aii" "$image/share/man/man1" \
  "$image/share/bash-completion/completions" "$image/share/zsh/site-functions"
"$jdk/bin/jlink" --add-modules "$modules" --output "$image/share/aii/runtime" \
  --strip-debug --no-man-pages --no-header-files --generate-cds-archive
cp -R "$lib" "$image/share/aii/lib"
if [ "$(uname -s)" = Darwin ] && [ -f "$src/swift-shim/.build/release/libfmshim.dylib" ]; then
  cp "$src/swift-shim/.build/release/libfmshim.dylib" "$image/share/aii/lib/"
fi
cp "$src/bin/find-jdk" "$image/share/aii/find-jdk"
cp "$src/bin/aii" "$image/bin/aii"
cp "$target/man/aii.1" "$image/share/man/man1/aii.1"
cp "$target/completion/aii.bash" "$image/share/bash-completion/completions/aii"
cp "$target/completion/_aii" "$image/share/zsh/site-functions/_aii"
for training in short prompt; do
  cache=$image/share/aii/aii.aot
  [ "$training" = short ] || cache=$image/share/aii/aii-$training.aot
  if ! AII_AOT_OUTPUT="$cache" "$image/bin/aii" "$training" < /dev/null > /dev/null 2>&1; then
    rm -f "$cache" "$cache.key"
    echo "aii: warning: could not create the startup cache for $training commands; the image works, but starts slower" >&2
  fi
done
echo "aii: image in $image (modules: $modules); run $image/bin/aii"
