#!/bin/sh
# Puts llama.cpp's prebuilt libraries and aii's shim over them in place for the build.
#
# The libraries are npm's @node-llama-cpp/<platform> packages, built from the
# llama.cpp commit that node-llama-cpp carries in llama/gitRelease.bundle (the
# source llama-server.sh builds llama-server from). Packages are fetched with
# `npm pack`, which never runs install scripts, and checked against the
# checksums below; they and the cloned source are cached outside the tree in
# $AII_LLAMACPP_CACHE (default ~/.cache/aii/llamacpp/<version>). The shim
# (src/main/cpp) is compiled against that source's headers and linked to the
# prebuilt libraries.
#
#   sh natives.sh MODULE_DIR TARGET_DIR [PLATFORM]
#
# leaves TARGET_DIR/natives/<platform>/ (every library aii loads, the shim
# included), TARGET_DIR/natives/NOTICE, and for the tests and the bindings
# TARGET_DIR/llamacpp/{include,templates,gguf-py}. PLATFORM defaults to this
# machine's: linux-x64, linux-arm64 or mac-arm64-metal.
set -eu

NODE_LLAMA_CPP=3.21.1
LLAMA_COMMIT=80fb11a
VERSION="node-llama-cpp-$NODE_LLAMA_CPP-$LLAMA_COMMIT"
# sha256 of each package's tarball, as `npm pack` fetched it (npm view ... dist agrees).
SHA_SOURCE=7a231d6bafa14142a1cbed9893d4ec5bc6041b2a5f5939a623accaab4203c11f
SHA_LINUX_X64=4b5b65a8b2611d8af94349b02d815c0f424a30a0a19aef2be5db25ecfef6730f
SHA_LINUX_ARM64=2c4271d060429701d27c7b0fd5ba8e83b37d36c427faf97d54d003d5d73b62dd
SHA_MAC_ARM64_METAL=cd11a52fab1935fde5abd221b5ecf8167686b45e386b6a02df49cb9b2814e9d6

MODULE=$(cd "$1" && pwd)
TARGET=$2
mkdir -p "$TARGET"
TARGET=$(cd "$TARGET" && pwd)
CACHE="${AII_LLAMACPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aii/llamacpp}/$VERSION"

log() { echo "natives.sh: $*" >&2; }

os=$(uname -s)
if [ -n "${3:-}" ]; then
  PLATFORM=$3
else
  case "$os-$(uname -m)" in
    Linux-x86_64) PLATFORM=linux-x64 ;;
    Linux-aarch64 | Linux-arm64) PLATFORM=linux-arm64 ;;
    Darwin-arm64) PLATFORM=mac-arm64-metal ;;
    *) log "no prebuilt llama.cpp for $os $(uname -m)"; exit 1 ;;
  esac
fi
case "$PLATFORM" in
  linux-x64) SHA=$SHA_LINUX_X64 ;;
  linux-arm64) SHA=$SHA_LINUX_ARM64 ;;
  mac-arm64-metal) SHA=$SHA_MAC_ARM64_METAL ;;
  *) log "unknown platform $PLATFORM"; exit 1 ;;
esac
case "$os" in
  Darwin) CXX=${CXX:-clang++}; SHIM=libaiillama.dylib ;;
  *) CXX=${CXX:-g++}; SHIM=libaiillama.so ;;
esac

# The tools of this step; a clean CI machine runs it as root and may lack some.
sh "$MODULE/../bin/need-tools" natives.sh npm git tar "$CXX"

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

mkdir -p "$CACHE/npm"
# One fetch at a time per cache directory; a second caller waits for the first.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.lock"
  flock 9
fi

# fetch PACKAGE TARBALL SHA: the tarball in the cache, fetched and checked if it is not there yet.
fetch() {
  file="$CACHE/npm/$2"
  if [ -f "$file" ] && [ "$(sha256 "$file")" = "$3" ]; then return 0; fi
  log "fetching $1@$NODE_LLAMA_CPP from npm"
  rm -rf "$CACHE/npm/tmp"
  mkdir -p "$CACHE/npm/tmp"
  ( cd "$CACHE/npm/tmp" && npm pack --silent "$1@$NODE_LLAMA_CPP" >/dev/null )
  got=$(sha256 "$CACHE/npm/tmp/$2")
  if [ "$got" != "$3" ]; then
    log "$1@$NODE_LLAMA_CPP has sha256 $got, not the pinned $3"; rm -rf "$CACHE/npm/tmp"; exit 1
  fi
  mv "$CACHE/npm/tmp/$2" "$file"
  rm -rf "$CACHE/npm/tmp"
}

fetch "@node-llama-cpp/$PLATFORM" "node-llama-cpp-$PLATFORM-$NODE_LLAMA_CPP.tgz" "$SHA"
if [ ! -d "$CACHE/$PLATFORM" ]; then
  rm -rf "$CACHE/$PLATFORM.tmp"
  mkdir -p "$CACHE/$PLATFORM.tmp"
  tar -xzf "$CACHE/npm/node-llama-cpp-$PLATFORM-$NODE_LLAMA_CPP.tgz" -C "$CACHE/$PLATFORM.tmp" "package/bins/$PLATFORM"
  mv "$CACHE/$PLATFORM.tmp/package/bins/$PLATFORM" "$CACHE/$PLATFORM"
  rm -rf "$CACHE/$PLATFORM.tmp"
fi

if [ ! -f "$CACHE/src/include/llama.h" ]; then
  fetch node-llama-cpp "node-llama-cpp-$NODE_LLAMA_CPP.tgz" "$SHA_SOURCE"
  rm -rf "$CACHE/src" "$CACHE/bundle"
  mkdir -p "$CACHE/bundle"
  tar -xzf "$CACHE/npm/node-llama-cpp-$NODE_LLAMA_CPP.tgz" -C "$CACHE/bundle" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone -q "$CACHE/bundle/package/llama/gitRelease.bundle" "$CACHE/src.tmp"
  head=$(git -C "$CACHE/src.tmp" rev-parse HEAD)
  case "$head" in
    "$LLAMA_COMMIT"*) ;;
    *) log "the bundle holds $head, not $LLAMA_COMMIT"; rm -rf "$CACHE/src.tmp"; exit 1 ;;
  esac
  rm -rf "$CACHE/src.tmp/.git" "$CACHE/bundle"
  mv "$CACHE/src.tmp" "$CACHE/src"
fi
SRC="$CACHE/src"

OUT="$TARGET/natives/$PLATFORM"
mkdir -p "$OUT"
# The libraries as npm ships them (their RUNPATH is $ORIGIN: they find each other in one directory).
for lib in "$CACHE/$PLATFORM"/lib*; do
  [ -e "$OUT/$(basename "$lib")" ] || cp "$lib" "$OUT/"
done
cp "$MODULE/src/main/resources/META-INF/NOTICE" "$TARGET/natives/NOTICE"

# The shim, rebuilt when a file of its source is newer than the library.
stale=0
[ -f "$OUT/$SHIM" ] || stale=1
for source in "$MODULE"/src/main/cpp/*; do
  [ "$source" -nt "$OUT/$SHIM" ] && stale=1
done
if [ "$stale" = 1 ]; then
  log "compiling $SHIM with $CXX"
  case "$os" in
    Darwin) link="-Wl,-rpath,@loader_path -install_name @rpath/$SHIM"
            libs="$OUT/libllama-common.dylib $(ls "$OUT"/libllama.*.dylib) $(ls "$OUT"/libggml.*.dylib) $OUT/libggml-base.dylib" ;;
    *) link="-Wl,-rpath,\$ORIGIN -Wl,--no-undefined"
       libs="-L$OUT -l:libllama-common.so -l:$(basename "$(ls "$OUT"/libllama.v*.so)") -l:$(basename "$(ls "$OUT"/libggml.v*.so)") -l:libggml-base.so" ;;
  esac
  # shellcheck disable=SC2086
  "$CXX" -std=c++17 -O2 -fPIC -shared -Wall -Wextra -Werror -Wno-unused-function \
    -I"$SRC/include" -I"$SRC/ggml/include" -I"$SRC/common" -I"$SRC/vendor" -I"$MODULE/src/main/cpp" \
    -o "$OUT/$SHIM.tmp" "$MODULE"/src/main/cpp/*.cpp $libs $link
  mv "$OUT/$SHIM.tmp" "$OUT/$SHIM"
fi

# What the tests, the bindings and the benchmarks read from the same source tree.
BUILD="$TARGET/llamacpp"
mkdir -p "$BUILD/include" "$BUILD/templates"
cp "$SRC/include/llama.h" "$SRC"/ggml/include/*.h "$MODULE/src/main/cpp/aiillama.h" "$BUILD/include/"
cp "$SRC"/models/templates/*.jinja "$BUILD/templates/"
rm -rf "$BUILD/gguf-py"
cp -R "$SRC/gguf-py" "$BUILD/gguf-py"
