#!/bin/sh
# Builds llama-server once per machine and prints the path of the binary.
#
# The source is the llama.cpp tree that npm's node-llama-cpp package carries
# in llama/gitRelease.bundle (a git bundle), so the only networks used are the
# npm registry and, on a fresh Debian machine, apt. The package is fetched
# with `npm pack`, which never runs install scripts. The build is CPU-only and
# lands in $AII_LLAMA_CACHE (default ~/.cache/aii/llama-server/<version>),
# outside the source tree, so only the first run pays for it.
#
#   sh aii-llama/llama-server.sh          build if needed, print the binary's path
#   sh aii-llama/llama-server.sh --check  print the path if built, else fail
set -eu

NODE_LLAMA_CPP=3.21.1
LLAMA_COMMIT=80fb11a
VERSION="node-llama-cpp-$NODE_LLAMA_CPP-$LLAMA_COMMIT"
CACHE="${AII_LLAMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aii/llama-server}/$VERSION"
BIN="$CACHE/bin/llama-server"
# The chat template the test models carry, from the same source tree.
TEMPLATE="$CACHE/share/Qwen-Qwen2.5-7B-Instruct.jinja"

log() { echo "llama-server.sh: $*" >&2; }

usable() { [ -x "$BIN" ] && [ -s "$TEMPLATE" ] && "$BIN" --version >/dev/null 2>&1; }

if usable; then echo "$BIN"; exit 0; fi
if [ "${1:-}" = --check ]; then log "not built: $BIN"; exit 1; fi

# The tools of the build; a clean CI machine runs this as root and may lack some.
sh "$(dirname "$0")/../bin/need-tools" llama-server.sh cmake g++ gcc make git npm tar

mkdir -p "$CACHE"
# One build at a time per cache directory; a second caller waits for the first.
LOCK="$CACHE/.lock"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$LOCK"
  flock 9
  if usable; then echo "$BIN"; exit 0; fi
fi

WORK="$CACHE/work"
rm -rf "$WORK"
mkdir -p "$WORK/npm"
log "fetching node-llama-cpp@$NODE_LLAMA_CPP from npm"
( cd "$WORK/npm" && npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP" >/dev/null )
tar -xzf "$WORK/npm/node-llama-cpp-$NODE_LLAMA_CPP.tgz" -C "$WORK/npm" package/llama/gitRelease.bundle
git -c advice.detachedHead=false clone -q "$WORK/npm/package/llama/gitRelease.bundle" "$WORK/src"
head=$(git -C "$WORK/src" rev-parse HEAD)
case "$head" in
  "$LLAMA_COMMIT"*) ;;
  *) log "the bundle holds $head, not $LLAMA_COMMIT"; exit 1 ;;
esac

generator=""
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
log "building llama.cpp $head (CPU only, $jobs jobs); this takes a while the first time"
# shellcheck disable=SC2086
cmake -S "$WORK/src" -B "$WORK/build" $generator -DCMAKE_BUILD_TYPE=Release \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
  -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF >"$WORK/cmake.log" 2>&1 \
  || { tail -n 40 "$WORK/cmake.log" >&2; exit 1; }
cmake --build "$WORK/build" --target llama-server -j "$jobs" >"$WORK/build.log" 2>&1 \
  || { tail -n 40 "$WORK/build.log" >&2; exit 1; }

rm -rf "$CACHE/bin.new" "$CACHE/share.new"
mkdir -p "$CACHE/bin.new" "$CACHE/share.new"
cp "$WORK/build/bin/llama-server" "$CACHE/bin.new/llama-server"
cp "$WORK/src/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$CACHE/share.new/"
rm -rf "$CACHE/bin" "$CACHE/share"
mv "$CACHE/share.new" "$CACHE/share"
mv "$CACHE/bin.new" "$CACHE/bin"
rm -rf "$WORK"
usable || { log "the built binary does not run"; exit 1; }
echo "$BIN"
