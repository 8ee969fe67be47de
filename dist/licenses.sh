#!/bin/sh
# Collects the notices of every third-party component an image bundles into
# DIR/licenses, one directory per component, with an index (DIR/licenses/README):
#
#   dist/licenses.sh JDK LIB RUNTIME DIR [MODULES]
#
#   - the Java runtime, unless RUNTIME is - (an install on the system's JDK):
#     RUNTIME/legal (OpenJDK's files, one directory per module), moved to
#     licenses/openjdk;
#   - each jar in LIB that is not aii's own: the LICENSE, NOTICE and COPYING
#     files in its META-INF, or, for a jar that carries none, the files kept
#     for its Maven group in dist/licenses/<groupId>/;
#   - what other modules' builds left in <module>/target/dist/licenses/<component>/
#     (the notices of the native libraries in <module>/target/dist/native/,
#     which image.sh bundles), <module> being any directory of MODULES (the
#     checkout unless given).
#
# A bundled component without a notice stops the build: its license must be
# added, never left out.
set -eu

[ $# -eq 4 ] || [ $# -eq 5 ] || { echo "usage: $0 JDK LIB RUNTIME DIR [MODULES]" >&2; exit 2; }
jdk=$1
lib=$2
runtime=$3
out=$4/licenses
src=$(cd "$(dirname "$0")/.." && pwd -P)
modules=${5:-$src}
work=$(mktemp -d "${TMPDIR:-/tmp}/aii-licenses.XXXXXX")
trap 'rm -rf "$work"' EXIT

mkdir -p "$out"
index=$work/index
: > "$index"

# The runtime: OpenJDK's legal files are the JDK's notices.
if [ "$runtime" != - ]; then
  if [ ! -f "$runtime/legal/java.base/LICENSE" ]; then
    echo "aii: the runtime in $runtime has no legal/java.base/LICENSE" >&2
    exit 1
  fi
  mv "$runtime/legal" "$out/openjdk"
  implementor=$(sed -n 's/^IMPLEMENTOR="\(.*\)"$/\1/p' "$jdk/release")
  java_version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$runtime/release")
  printf '%s\t%s\t%s\n' openjdk "Java runtime $java_version (OpenJDK, built by $implementor)" \
    "the runtime's legal files" >> "$index"
fi

# kept_for ID: the directory of dist/licenses for a Maven group or module
# name, or the nearest one above it (org.jline for org.jline.terminal).
kept_for() {
  id=$1
  while [ -n "$id" ]; do
    if [ -d "$src/dist/licenses/$id" ]; then
      printf '%s\n' "$id"
      return 0
    fi
    case $id in
      *.*) id=${id%.*} ;;
      *) return 1 ;;
    esac
  done
  return 1
}

# The jars.
feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release")
for jar in "$lib"/*.jar; do
  name=${jar##*/}
  dir=$work/jars/$name
  mkdir -p "$dir"
  (cd "$dir" && "$jdk/bin/jar" xf "$jar" META-INF)
  props=$(find "$dir/META-INF/maven" -name pom.properties 2>/dev/null | head -n 1)
  if [ -n "$props" ]; then
    group=$(sed -n 's/^groupId=//p' "$props")
    artifact=$(sed -n 's/^artifactId=//p' "$props")
    version=$(sed -n 's/^version=//p' "$props")
  else
    # No Maven coordinates inside: the jar's file name and its module's name stand for them.
    artifact=$(printf '%s\n' "${name%.jar}" | sed 's/-[0-9][^-]*$//')
    version=${name%.jar}
    version=${version#"$artifact"-}
    group=$("$jdk/bin/jar" --describe-module --file "$jar" --release "$feature" 2>/dev/null | awk -F@ '/@/ { print $1; exit }')
  fi
  # aii's own modules are under aii's LICENSE.
  [ "$group" = dev.aii ] && continue
  target=$out/$artifact
  mkdir -p "$target"
  found=$(find "$dir/META-INF" -maxdepth 1 -type f \( -iname '*LICENSE*' -o -iname '*NOTICE*' -o -iname '*COPYING*' \) | sort)
  if [ -n "$found" ]; then
    printf '%s\n' "$found" | while IFS= read -r file; do cp "$file" "$target/"; done
    from="the jar's META-INF"
  elif kept=$(kept_for "$group"); then
    cp -RL "$src/dist/licenses/$kept/." "$target/"
    from="dist/licenses/$kept (the jar carries none)"
  else
    echo "aii: $name ($group:$artifact:$version) carries no license or notice," >&2
    echo "aii: and dist/licenses/ holds none for $group: add its license there" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\n' "$artifact" "$group:$artifact:$version" "$from" >> "$index"
done

# Other modules' native libraries and their notices.
for module in "$modules"/*/target/dist; do
  [ -d "$module" ] || continue
  label=${module#"$modules"/}
  label=${label%/target/dist}
  if [ -d "$module/native" ] && [ -n "$(ls -A "$module/native")" ] \
      && { [ ! -d "$module/licenses" ] || [ -z "$(ls -A "$module/licenses")" ]; }; then
    echo "aii: $label/target/dist/native holds libraries but $label/target/dist/licenses no notice for them" >&2
    exit 1
  fi
  [ -d "$module/licenses" ] || continue
  for component in "$module/licenses"/*; do
    [ -d "$component" ] || continue
    if [ -z "$(ls -A "$component")" ]; then
      echo "aii: $label/target/dist/licenses/${component##*/} is empty" >&2
      exit 1
    fi
    cp -RL "$component" "$out/${component##*/}"
    printf '%s\t%s\t%s\n' "${component##*/}" "${component##*/}" "$label/target/dist/licenses" >> "$index"
  done
done

{
  echo "Third-party components bundled with aii, and where their notices are."
  echo "aii itself is under the Apache License, Version 2.0."
  echo
  awk -F '\t' '{ printf "%-24s %s\n%-24s from %s\n", $1 "/", $2, "", $3 }' "$index"
} > "$out/README"
