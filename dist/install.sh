#!/bin/sh
# Installs aii under a prefix from an already built checkout, or removes what
# an install put there. The Makefile's install, install-files and uninstall
# targets call it; see docs/usage.md.
#
#   dist/install.sh install PREFIX      (after ./mvnw -DskipTests package)
#   dist/install.sh uninstall PREFIX
#
# An install records every file and directory it creates in
# PREFIX/share/aii/installed, and uninstall removes exactly those (directories
# only when empty), so nothing that was there before is touched.
set -eu

usage() {
  echo "usage: $0 install|uninstall PREFIX" >&2
  exit 2
}
[ $# -eq 2 ] || usage
action=$1
prefix=$2
case $prefix in
  /*) ;;
  *) prefix=$(pwd -P)/$prefix ;;
esac
src=$(cd "$(dirname "$0")/.." && pwd -P)
share=$prefix/share/aii
manifest=$share/installed

uninstall() {
  if [ ! -f "$manifest" ]; then
    echo "aii: nothing to uninstall: no $manifest"
    return 0
  fi
  # Files first, then directories deepest first; a directory that holds
  # anything else stays.
  listed=$(cat "$manifest")
  printf '%s\n' "$listed" | sed -n 's/^f //p' | while IFS= read -r f; do rm -f "$f"; done
  printf '%s\n' "$listed" | sed -n 's/^d //p' | sort -r | while IFS= read -r d; do rmdir "$d" 2>/dev/null || true; done
  echo "aii: uninstalled from $prefix"
}

# Creates a directory and its missing parents, recording the ones it made.
make_dir() {
  missing=""
  d=$1
  while [ ! -d "$d" ]; do
    missing="$d
$missing"
    d=$(dirname "$d")
  done
  printf '%s' "$missing" | while IFS= read -r m; do
    [ -n "$m" ] || continue
    mkdir "$m"
    echo "d $m" >> "$records"
  done
}

# put SOURCE TARGET MODE: copies one file, recording it.
put() {
  make_dir "$(dirname "$2")"
  cp "$1" "$2.tmp.$$"
  chmod "$3" "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
  echo "f $2" >> "$records"
}

install_files() {
  target=$src/aii-cli/target
  for needed in "$target/lib/aii-cli-"*.jar "$target/man/aii.1" "$target/completion/aii.bash" "$target/completion/_aii"; do
    if [ ! -f "$needed" ]; then
      echo "aii: not built yet ($needed is missing): run make install, or ./mvnw -DskipTests package first" >&2
      exit 1
    fi
  done
  java_home=$("$src/bin/find-jdk" --jre)

  # A previous install of any version goes first, so that no old jar stays on the module path.
  if [ -f "$manifest" ]; then
    uninstall > /dev/null
  fi
  records=$(mktemp "${TMPDIR:-/tmp}/aii-install.XXXXXX")
  # The record becomes the manifest even when the install stops half way, so that uninstall still works.
  trap 'if [ -d "$share" ]; then cp "$records" "$manifest"; fi; rm -f "$records"' EXIT

  make_dir "$share/lib"
  echo "f $manifest" >> "$records"
  for jar in "$target/lib/"*.jar; do
    put "$jar" "$share/lib/${jar##*/}" 644
  done
  if [ "$(uname -s)" = Darwin ] && [ -f "$src/swift-shim/.build/release/libfmshim.dylib" ]; then
    # aii-ffm looks for the shim next to its own jar (ShimLoader).
    put "$src/swift-shim/.build/release/libfmshim.dylib" "$share/lib/libfmshim.dylib" 755
  fi
  put "$src/bin/find-jdk" "$share/find-jdk" 755
  printf '%s\n' "$java_home" > "$records.java-home"
  put "$records.java-home" "$share/java-home" 644
  rm -f "$records.java-home"
  put "$target/man/aii.1" "$prefix/share/man/man1/aii.1" 644
  put "$target/completion/aii.bash" "$prefix/share/bash-completion/completions/aii" 644
  put "$target/completion/_aii" "$prefix/share/zsh/site-functions/_aii" 644
  put "$src/bin/aii" "$prefix/bin/aii" 755

  # The startup caches, one for the short commands and one for prompts: made
  # by the installed launcher itself, so that they match the module path and
  # JVM flags of every later run.
  for training in short prompt; do
    cache=$share/aii.aot
    [ "$training" = short ] || cache=$share/aii-$training.aot
    rm -f "$cache" "$cache.key"
    echo "f $cache" >> "$records"
    echo "f $cache.key" >> "$records"
    if ! AII_AOT_OUTPUT="$cache" "$prefix/bin/aii" "$training" < /dev/null > /dev/null 2>&1 || [ ! -s "$cache" ]; then
      rm -f "$cache" "$cache.key"
      echo "aii: warning: could not create the startup cache for $training commands; aii works, but starts slower" >&2
    fi
  done

  echo "aii: installed $prefix/bin/aii (Java: $java_home)"
  case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "aii: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
  esac
  zsh_fpath_note
}

# When zsh is here and its default function path (no startup files read) lacks
# PREFIX/share/zsh/site-functions, as it does for ~/.local, says what to add.
zsh_fpath_note() {
  functions=$prefix/share/zsh/site-functions
  command -v zsh >/dev/null 2>&1 || return 0
  if zsh -fc 'print -rl -- $fpath' 2>/dev/null | grep -Fqx -- "$functions"; then
    return 0
  fi
  shown=$functions
  case $functions in
    *[!A-Za-z0-9_./+-]*) shown="'$(printf '%s' "$functions" | sed "s/'/'\\\\''/g")'" ;;
  esac
  echo "aii: zsh does not look for completion in $functions; add to ~/.zshrc, before compinit:"
  echo "aii:   fpath=($shown \$fpath)"
}

case $action in
  install) install_files ;;
  uninstall) uninstall ;;
  *) usage ;;
esac
