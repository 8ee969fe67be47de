#!/bin/sh
# The startup caches of an aii (the JDK 25 AOT caches aii.aot and
# aii-prompt.aot, see bin/aii): checks them with the JVM and makes or remakes
# any it would not use, in the one place where they can be written,
# atomically and once. bin/aii runs it (as lib/aii/aot-caches of an image,
# share/aii/aot-caches of an install, dist/aot-caches.sh in a checkout):
#
#   aot-caches first-run    LAUNCHER HOME JAVA_HOME LIB USERS
#       no cache was made for here (an image in a new place); says nothing
#   aot-caches post-install LAUNCHER HOME JAVA_HOME LIB USERS
#       aii --post-install: says what it did; exit 1 when a cache could not be made
#   aot-caches clean DIR
#       removes what it made in DIR (the .deb's prerm)
#
# The caches go to HOME (beside the runtime or the jars) when it can be
# written, else to USERS (the user's cache directory, for an install the user
# cannot write such as /usr/lib/aii; empty when there is none). There, a cache
# the JVM takes (-XX:AOTMode=on refuses to start without it) only gets a key
# for here: in USERS a symbolic link to the one in HOME and its key. One the
# JVM refuses, or a missing one, is trained again. Every file is written under
# a temporary name and renamed into place, the cache before its key, so that a
# launcher never finds a key without its cache, nor half a file. A lock
# directory makes the work happen once: a first run that finds it taken goes
# on without caches, --post-install waits for it. A cache that could not be
# made leaves a note, so that the first runs after it do not try again
# (--post-install does).
set -u

CACHES="aii.aot aii-prompt.aot"

usage() {
  echo "usage: $0 first-run|post-install LAUNCHER HOME JAVA_HOME LIB USERS | clean DIR" >&2
  exit 2
}

clean() {
  for name in $CACHES; do
    rm -f "$1/$name" "$1/$name.key"
  done
  rm -rf "$1/.aot-lock" "$1/.aot-failed" "$1"/.aot-tmp.* "$1"/.aot-stale.*
}

mode=${1-}
case $mode in
  clean) [ $# -eq 2 ] || usage; clean "$2"; exit 0 ;;
  first-run|post-install) [ $# -eq 6 ] || usage ;;
  *) usage ;;
esac
launcher=$2
home=$3
java_home=$4
lib=$5
users=$6
# The training and the checks run as aii runs by default.
unset AII_JAVA_OPTS AII_AOT_OUTPUT AII_AOT_CACHE

say() {
  [ "$mode" = first-run ] || printf 'aii: %s\n' "$1"
}
complain() {
  [ "$mode" = first-run ] || printf 'aii: %s\n' "$1" >&2
}

if [ -w "$home" ]; then
  dir=$home
elif [ -n "$users" ] && mkdir -p "$users" 2>/dev/null && [ -w "$users" ]; then
  dir=$users
else
  complain "cannot write the startup caches: $home is read-only${users:+, and so is $users}"
  exit 1
fi

# for_here KEY: whether the key file KEY names this Java home and module path.
for_here() {
  [ -r "$1" ] || return 1
  { read -r made_for_java; read -r made_for_lib; } < "$1" || return 1
  [ "$made_for_java" = "$java_home" ] && [ "$made_for_lib" = "$lib" ]
}

# The note of a failure holds a key too: it counts for this place only.
failed_note=$dir/.aot-failed
if [ "$mode" = first-run ] && for_here "$failed_note"; then
  exit 0
fi

lock=$dir/.aot-lock
tmp=$dir/.aot-tmp.$$
locked=""
trap 'rm -rf "$tmp"; if [ -n "$locked" ]; then rm -rf "$lock"; fi' EXIT
trap 'exit 1' INT TERM HUP

# stale: whether the lock's owner is gone (its pid no longer runs), or it was
# taken more than 10 minutes ago (a training takes seconds).
stale() {
  if [ -n "$(find "$lock" -prune -mmin +10 2>/dev/null)" ]; then
    return 0
  fi
  pid=""
  read -r pid < "$lock/pid" 2>/dev/null || return 1
  [ -n "$pid" ] || return 1
  kill -0 "$pid" 2>/dev/null && return 1
  [ -d "/proc/$pid" ] && return 1
  return 0
}

waited=0
until mkdir "$lock" 2>/dev/null; do
  if stale; then
    # Renamed first, so that of two runs that find it stale only one removes it.
    mv "$lock" "$dir/.aot-stale.$$" 2>/dev/null && rm -rf "$dir/.aot-stale.$$"
    continue
  fi
  [ "$mode" = first-run ] && exit 0
  if [ "$waited" -ge 300 ]; then
    complain "$lock has been taken for 5 minutes; remove it if no aii is making the startup caches"
    exit 1
  fi
  [ "$waited" -eq 0 ] && say "waiting for another aii making the startup caches in $dir"
  sleep 1
  waited=$((waited + 1))
done
locked=1
echo $$ > "$lock/pid"
mkdir "$tmp" || exit 1

# check FILE: whether the JVM starts aii with the cache FILE.
check() {
  AII_AOT_CACHE=$1 AII_JAVA_OPTS=-XX:AOTMode=on "$launcher" --version </dev/null >/dev/null 2>&1
}

# publish NAME: puts tmp/NAME (when there) and then its key into place.
publish() {
  if [ -e "$tmp/$1" ] || [ -L "$tmp/$1" ]; then
    mv -f "$tmp/$1" "$dir/$1" || return 1
  fi
  printf '%s\n%s\n' "$java_home" "$lib" > "$tmp/$1.key" && mv -f "$tmp/$1.key" "$dir/$1.key"
}

# The shipped caches to check, checked at once: each check is a JVM start,
# and a first run waits for them.
todo=""
for name in $CACHES; do
  if [ "$mode" = first-run ] && [ -r "$dir/$name" ] && for_here "$dir/$name.key"; then
    continue
  fi
  todo="$todo $name"
  if [ -f "$home/$name" ]; then
    { check "$home/$name" && : > "$tmp/$name.takes"; } &
  fi
done
wait

failed=""
for name in $todo; do
  if [ -f "$tmp/$name.takes" ]; then
    if [ "$dir" != "$home" ]; then
      ln -s "$home/$name" "$tmp/$name" || { failed="$failed $name"; continue; }
    fi
    if publish "$name"; then
      say "$dir/$name: checked, the JVM takes it here"
      continue
    fi
  else
    case $name in
      aii.aot) training=short ;;
      *) training=prompt ;;
    esac
    if AII_AOT_OUTPUT=$tmp/$name "$launcher" "$training" </dev/null >/dev/null 2>&1 && [ -s "$tmp/$name" ] \
        && check "$tmp/$name" && publish "$name"; then
      say "$dir/$name: made"
      continue
    fi
  fi
  rm -f "$tmp/$name" "$tmp/$name.key"
  failed="$failed $name"
  complain "could not make the startup cache $dir/$name; aii works, but starts slower"
done

if [ -n "$failed" ]; then
  printf '%s\n%s\n' "$java_home" "$lib" > "$tmp/failed" && mv -f "$tmp/failed" "$failed_note"
  [ "$mode" = first-run ] || exit 1
else
  rm -f "$failed_note"
fi
exit 0
