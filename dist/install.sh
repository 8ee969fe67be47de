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
#
# DESTDIR, as packagers use it: every file goes to DESTDIR/PREFIX/..., and
# nothing outside DESTDIR is written, while the files name PREFIX alone (the
# record, java-home). The startup caches are then left to the package's
# post-install step, `PREFIX/bin/aii --post-install`, run where the files end
# up; the record lists them, so that uninstall removes them too. The record
# of a staged install holds files only, no directories.
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
dest=${DESTDIR-}
case $dest in
  ''|/*) dest=${dest%/} ;;
  *) dest=$(pwd -P)/$dest ;;
esac
share=$prefix/share/aii
manifest=$share/installed

uninstall() {
  if [ ! -f "$dest$manifest" ]; then
    echo "aii: nothing to uninstall: no $dest$manifest"
    return 0
  fi
  # Files first, then directories deepest first; a directory that holds
  # anything else stays.
  listed=$(cat "$dest$manifest")
  printf '%s\n' "$listed" | sed -n 's/^f //p' | while IFS= read -r f; do rm -f "$dest$f"; done
  printf '%s\n' "$listed" | sed -n 's/^d //p' | sort -r | while IFS= read -r d; do rmdir "$dest$d" 2>/dev/null || true; done
  echo "aii: uninstalled from $dest$prefix"
}

# Creates a directory and its missing parents under DESTDIR, recording the ones it made.
make_dir() {
  missing=""
  d=$1
  while [ ! -d "$dest$d" ] && [ "$d" != / ]; do
    missing="$d
$missing"
    d=$(dirname "$d")
  done
  printf '%s' "$missing" | while IFS= read -r m; do
    [ -n "$m" ] || continue
    mkdir "$dest$m"
    # Under DESTDIR, which directories the target system lacks is not known here: only files are recorded.
    [ -n "$dest" ] || echo "d $m" >> "$records"
  done
}

# put SOURCE TARGET MODE: copies one file to DESTDIR/TARGET, recording TARGET.
put() {
  make_dir "$(dirname "$2")"
  cp "$1" "$dest$2.tmp.$$"
  chmod "$3" "$dest$2.tmp.$$"
  mv -f "$dest$2.tmp.$$" "$dest$2"
  echo "f $2" >> "$records"
}

# put_tree DIR TARGET: put for every file under DIR, mode 644.
put_tree() {
  (cd "$1" && find . -type f) | sort | while IFS= read -r f; do
    put "$1/${f#./}" "$2/${f#./}" 644
  done
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
  if [ -f "$dest$manifest" ]; then
    uninstall > /dev/null
  fi
  records=$(mktemp "${TMPDIR:-/tmp}/aii-install.XXXXXX")
  notices=$(mktemp -d "${TMPDIR:-/tmp}/aii-notices.XXXXXX")
  # The record becomes the manifest even when the install stops half way, so that uninstall still works.
  trap 'if [ -d "$dest$share" ]; then cp "$records" "$dest$manifest"; fi; rm -rf "$records" "$records.java-home" "$notices"' EXIT

  [ -z "$dest" ] || mkdir -p "$dest"
  make_dir "$share/lib"
  echo "f $manifest" >> "$records"
  for jar in "$target/lib/"*.jar; do
    put "$jar" "$share/lib/${jar##*/}" 644
  done
  # Native libraries that other modules' builds left for packages, beside the jars, where their loaders look.
  for natives in "$src"/*/target/dist/native; do
    [ -d "$natives" ] || continue
    for library in "$natives"/*; do
      [ -f "$library" ] && put "$library" "$share/lib/${library##*/}" 755
    done
  done
  if [ "$(uname -s)" = Darwin ] && [ -f "$src/swift-shim/.build/release/libfmshim.dylib" ]; then
    # aii-ffm looks for the shim next to its own jar (ShimLoader).
    put "$src/swift-shim/.build/release/libfmshim.dylib" "$share/lib/libfmshim.dylib" 755
  fi
  put "$src/bin/find-jdk" "$share/find-jdk" 755
  put "$src/dist/aot-caches.sh" "$share/aot-caches" 755
  printf '%s\n' "$java_home" > "$records.java-home"
  put "$records.java-home" "$share/java-home" 644
  put "$target/man/aii.1" "$prefix/share/man/man1/aii.1" 644
  put "$target/completion/aii.bash" "$prefix/share/bash-completion/completions/aii" 644
  put "$target/completion/_aii" "$prefix/share/zsh/site-functions/_aii" 644
  # The notices of the jars installed (the JDK is the system's, not bundled).
  sh "$src/dist/licenses.sh" "$("$src/bin/find-jdk")" "$target/lib" - "$notices"
  put "$src/LICENSE" "$prefix/share/doc/aii/LICENSE" 644
  put_tree "$notices/licenses" "$prefix/share/doc/aii/licenses"
  put "$src/bin/aii" "$prefix/bin/aii" 755

  # The startup caches, one for the short commands and one for prompts: made
  # by the installed launcher itself, so that they match the module path and
  # JVM flags of every later run (see dist/aot-caches.sh).
  for cache in aii.aot aii.aot.key aii-prompt.aot aii-prompt.aot.key .aot-failed; do
    echo "f $share/$cache" >> "$records"
  done
  if [ -n "$dest" ]; then
    echo "aii: staged in $dest; once the files are in $prefix, $prefix/bin/aii --post-install makes the startup caches"
  elif ! "$prefix/bin/aii" --post-install > /dev/null; then
    echo "aii: warning: aii works, but starts slower without its startup caches" >&2
  fi

  echo "aii: installed $dest$prefix/bin/aii (Java: $java_home)"
  # Notes for the user of this machine; a staged install is for a package.
  [ -z "$dest" ] || return 0
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
