# aii: build, install for this user, uninstall, a self-contained image, and
# the release packages.
#
#   make install                  build (tests skipped) and install under PREFIX
#   make install PREFIX=/usr/local
#   make install PREFIX=/usr DESTDIR=/tmp/stage   stage the files for a package
#   make uninstall                remove exactly what install put there (DESTDIR too)
#   make install-files            install an already built tree (no Maven run)
#   make image                    a self-contained directory with its own Java runtime (jlink)
#   make dist                     the release tarball for this machine and its .sha256, in DIST
#   make deb                      the .deb made from that tarball (Linux; needs dpkg-dev)
#   make smoke                    aii-dist's tests of what a user gets, run on the files in DIST
#   make cache                    the startup caches for bin/aii in this checkout
#   make fuzz                     the syscall oracle for 30 minutes (FUZZ_SECONDS=... for another
#                                 time, SEED=... to replay a run); it needs strace (Linux)
#
# PREFIX defaults to ~/.local: aii goes to PREFIX/bin/aii, its jars and
# startup cache to PREFIX/share/aii, the man page to PREFIX/share/man/man1,
# completion to PREFIX/share/bash-completion/completions and
# PREFIX/share/zsh/site-functions. DIST defaults to target/dist.
# docs/packaging.md says what each package holds.

PREFIX ?= $(HOME)/.local
DESTDIR ?=
MVNW ?= ./mvnw
IMAGE ?= aii-cli/target/image
DIST ?= target/dist

FUZZ_SECONDS ?= 1800

.PHONY: all build install install-files uninstall image dist deb smoke cache fuzz

all: build

build:
	$(MVNW) -B -q -DskipTests package

install: build
	DESTDIR="$(DESTDIR)" sh dist/install.sh install "$(PREFIX)"

install-files:
	DESTDIR="$(DESTDIR)" sh dist/install.sh install "$(PREFIX)"

uninstall:
	DESTDIR="$(DESTDIR)" sh dist/install.sh uninstall "$(PREFIX)"

image: build
	sh dist/image.sh "$(IMAGE)"

dist: build
	sh dist/tarball.sh "$(DIST)"

deb: dist
	sh dist/deb.sh "$(DIST)/$$(sh dist/tarball.sh --name).tar.gz" "$(DIST)"

# The tests of the release files that make dist and make deb left in DIST (the release workflow runs it on
# each runner); a .deb is tested where there is one.
SMOKE_TESTS = TarballSmokeTest,ImageTest,AotCachesTest,ReadOnlyInstallTest,DebTest

smoke:
	name=$$(sh dist/tarball.sh --name); \
	deb=$$(ls "$(abspath $(DIST))"/aii_*.deb 2>/dev/null | head -n 1); \
	$(MVNW) -B -pl aii-dist -am test -Dtest='$(SMOKE_TESTS)' -Dsurefire.failIfNoSpecifiedTests=false \
	  -Daii.dist.tarball="$(abspath $(DIST))/$$name.tar.gz" $${deb:+-Daii.dist.deb="$$deb"}

cache:
	bin/find-jdk --jre > aii-cli/target/java-home
	AII_AOT_OUTPUT=aii-cli/target/aii.aot bin/aii short < /dev/null > /dev/null
	AII_AOT_OUTPUT=aii-cli/target/aii-prompt.aot bin/aii prompt < /dev/null > /dev/null
	@echo "aii: startup caches aii-cli/target/aii.aot and aii-prompt.aot made for bin/aii (./mvnw package makes them stale)"

fuzz:
	$(MVNW) -B -q -pl aii-core test -Dtest=OracleTest -Dsurefire.failIfNoSpecifiedTests=false \
		-Daii.oracle.seconds=$(FUZZ_SECONDS) $(if $(SEED),-Daii.test.seed=$(SEED)); \
		status=$$?; echo "aii: violations and their traces are in aii-core/target/oracle"; exit $$status
