#!/bin/sh
# A Debian package made from a Linux release tarball (dist/tarball.sh), so
# that it holds the very image the tarball does:
#
#   dist/deb.sh TARBALL OUTDIR     writes OUTDIR/aii_<version>-1_<arch>.deb and its .sha256
#
#   /usr/bin/aii                                the launcher
#   /usr/lib/aii/                               the image's lib/aii: runtime, native, aot-caches
#   /usr/share/man/man1/aii.1.gz                the man page
#   /usr/share/bash-completion/completions/aii  bash completion
#   /usr/share/zsh/vendor-completions/_aii      zsh completion
#   /usr/share/doc/aii/copyright, licenses/     aii's license and the bundled notices
#
# The startup caches are not in the package: they are made for the machine
# they run on, by postinst (aii --post-install, as root, into /usr/lib/aii),
# and removed by prerm. Where postinst could not make them, a user's first
# run makes its own under ~/.cache/aii. The maintainer scripts work under
# dpkg --root too (they prefix DPKG_ROOT). Depends is what dpkg-shlibdeps
# (dpkg-dev) finds the ELF files need.
#
# DEB_MAINTAINER sets the Maintainer field.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 TARBALL OUTDIR" >&2; exit 2; }
tarball=$1
name=${tarball##*/}
name=${name%.tar.gz}
case $name in
  aii-*-linux-x86_64) arch=amd64 ;;
  aii-*-linux-aarch64) arch=arm64 ;;
  *) echo "aii: $tarball is no Linux release tarball (aii-<version>-linux-<arch>.tar.gz)" >&2; exit 2 ;;
esac
version=${name#aii-}
version=${version%-linux-*}
if ! command -v dpkg-shlibdeps > /dev/null 2>&1 || ! command -v dpkg-deb > /dev/null 2>&1; then
  echo "aii: dpkg-deb and dpkg-shlibdeps (Debian's dpkg-dev) are needed to make the .deb" >&2
  exit 1
fi
mkdir -p "$2"
out=$(cd "$2" && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/aii-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

gzip -dc "$tarball" | (cd "$work" && tar -xf -)
image=$work/$name
root=$work/aii_$version-1_$arch
doc=$root/usr/share/doc/aii
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$doc"
cp -R "$image/lib/aii" "$root/usr/lib/aii"
sh "$image/lib/aii/aot-caches" clean "$root/usr/lib/aii"
cp "$image/bin/aii" "$root/usr/bin/aii"
gzip -9n < "$image/share/man/man1/aii.1" > "$root/usr/share/man/man1/aii.1.gz"
cp "$image/share/bash-completion/completions/aii" "$root/usr/share/bash-completion/completions/aii"
cp "$image/share/zsh/site-functions/_aii" "$root/usr/share/zsh/vendor-completions/_aii"
cp -R "$image/share/doc/aii/licenses" "$doc/licenses"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: aii"
  echo "Source: https://github.com/aii-dev/aii"
  echo
  echo "Files: *"
  echo "Copyright: The aii developers"
  echo "License: Apache-2.0"
  echo " On Debian systems the full text of the Apache License 2.0 is in"
  echo " /usr/share/common-licenses/Apache-2.0."
  echo "Comment:"
  echo " aii bundles a Java runtime and libraries under their own licenses. Each"
  echo " has its notices in /usr/share/doc/aii/licenses/<component>/; the list:"
  sed -e 's/^$/./' -e 's/^/ /' "$image/share/doc/aii/licenses/README"
} > "$doc/copyright"

# Depends: the shared libraries every ELF file of the package needs, by the
# packages that hold them here. Libraries of the package itself (libjvm.so,
# found through $ORIGIN) need no package.
find "$root/usr" -type f | while IFS= read -r file; do
  if [ "$(od -An -tx1 -N4 "$file" | tr -d ' \n')" = 7f454c46 ]; then
    printf -- '-e%s\n' "$file"
  fi
done > "$work/elf"
mkdir -p "$work/shlibdeps/debian"
: > "$work/shlibdeps/debian/control"
if ! depends=$(cd "$work/shlibdeps" && tr '\n' '\0' < "$work/elf" | xargs -0 dpkg-shlibdeps -O 2> "$work/shlibdeps.log"); then
  cat "$work/shlibdeps.log" >&2
  exit 1
fi
depends=${depends#shlibs:Depends=}
if [ -z "$depends" ]; then
  echo "aii: dpkg-shlibdeps found no dependency in $(wc -l < "$work/elf") ELF files" >&2
  exit 1
fi

installed=$(du -sk "$root/usr" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: aii
Version: $version-1
Architecture: $arch
Maintainer: ${DEB_MAINTAINER:-The aii developers <https://github.com/aii-dev/aii>}
Installed-Size: $installed
Depends: $depends
Section: utils
Priority: optional
Homepage: https://aii.dev
Description: ask a language model on this machine from the command line
 aii asks a local language model (Ollama, llama.cpp's llama-server, LM
 Studio, vLLM or any OpenAI-compatible server) from the command line. With
 -x the model may run programs: those on an allowlist at once, anything else
 only after the user approves it on the terminal.
 .
 This package bundles its own Java runtime; it needs no JDK.
EOF
cat > "$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# The startup caches, made for this machine where dpkg put aii (as root, into /usr/lib/aii).
set -e
if [ "$1" = configure ]; then
  if ! "${DPKG_ROOT:-}/usr/bin/aii" --post-install > /dev/null; then
    echo "aii: works, but starts slower; run aii --post-install as root to try again" >&2
  fi
fi
exit 0
EOF
cat > "$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
# What postinst made (and a first run as root): not files of the package.
set -e
case "$1" in
  remove|upgrade|deconfigure|failed-upgrade)
    sh "${DPKG_ROOT:-}/usr/lib/aii/aot-caches" clean "${DPKG_ROOT:-}/usr/lib/aii" ;;
esac
exit 0
EOF
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
deb=$out/aii_${version}-1_$arch.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$root" "$deb.tmp" > /dev/null
mv -f "$deb.tmp" "$deb"
sh "$(dirname "$0")/checksum.sh" "$deb"
echo "aii: $deb and its .sha256 (Depends: $depends)"
