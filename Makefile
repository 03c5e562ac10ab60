# SPDX-License-Identifier: GPL-2.0
# memdiag - top-level build. Kbuild (in Kbuild and module/Kbuild) builds the
# module; this file drives it, the CLI, code generation and the tests.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

# Build directory of each Debian kernel the tests cover.
KVERS = $(shell scripts/kernels.sh)

.PHONY: all module userspace selftests modules-all regen check-regen \
	check check-full stress check-debug check-kcsan coverage fuzz-guided check-debian image check-image run bench bench-ctxsw scale-check deps clean help install uninstall \
	install-module uninstall-module install-user uninstall-user \
	install-marker uninstall-marker sign

all: module userspace

help:
	@echo "make              build module/memdiag.ko (KDIR=$(KDIR)) and memdiagctl"
	@echo "make module       only the module; KDIR=/path/to/kernel/build to choose"
	@echo "make userspace    only userspace/memdiagctl"
	@echo "make modules-all  the module for every Debian kernel here, into build/KVER/"
	@echo "make regen        regenerate the UAPI header, genl_gen.[ch] and the selftests' spec_ops.h from the YNL spec"
	@echo "make check        install what is missing and run the tests: host tests, and"
	@echo "                  VM tests with at least one boot per kernel family (about"
	@echo "                  30 minutes on two cores); ends with each step's time;"
	@echo "                  TEST=\"name ...\" only those (scripts/test.sh --list names them);"
	@echo "                  JOBS=N VM boots at a time (default: the number of CPUs)"
	@echo "make check-full   make check plus every VM test on every kernel it applies"
	@echo "                  to and the Secure Boot step (about 1.5 hours)"
	@echo "make stress       the longer VM tests (fuzzer 10^6 messages per kernel, storms)"
	@echo "make check-debug  the VM tests on a 6.12 kernel built with KASAN, lockdep,"
	@echo "                  kmemleak and DEBUG_ATOMIC_SLEEP (the first build is long)"
	@echo "make check-kcsan  the storms, fault injection, netlink tests and fuzzer on that"
	@echo "                  kernel with KCSAN instead of KASAN, after a check that the"
	@echo "                  module is instrumented and a planted race KCSAN must report"
	@echo "                  (TEST= others; long)"
	@echo "make coverage     line and branch coverage of module/ under those VM tests,"
	@echo "                  on that kernel with gcov: a table, and HTML in"
	@echo "                  build/coverage/html/ (Documentation/coverage.rst; long);"
	@echo "                  ADD=1 adds the TEST rows to the last run's counters"
	@echo "make fuzz-guided  the random and the KCOV-guided netlink fuzzer on that kernel,"
	@echo "                  COUNT messages each (default 20000): edges reached, and the"
	@echo "                  corpus in build/kcov/corpus.txt (Documentation/coverage.rst)"
	@echo "make check-debian the packages installed, signed, loaded, served and purged"
	@echo "                  by apt, DKMS and systemd in a Debian 12 guest (TCG), from"
	@echo "                  6.1 (also with module.sig_enforce=1) upgraded to 6.12,"
	@echo "                  DKMS's key enrolled at MokManager under Secure Boot;"
	@echo "                  the guest image is built once into ~/.cache/memdiag/debian"
	@echo "make image        the exporter's OCI image from the memdiagctl package"
	@echo "                  (mmdebstrap, buildah), tagged as dist/kubernetes/image.env"
	@echo "                  says, and build/image/memdiag.oci.tar (root, the Debian mirror)"
	@echo "make check-image  make image, then run it under podman with the vm and node"
	@echo "                  overlays' settings (selftests/fleet/image.sh)"
	@echo "make run          install what is missing, build, and run 'memdiagctl info'"
	@echo "                  (natively if this host can load modules, else in a VM)"
	@echo "make install      the module (for KVER=$(KVER)) into /lib/modules/KVER/updates,"
	@echo "                  memdiagctl, man page, bash completion, exporter systemd unit,"
	@echo "                  libmemdiag-marker (.so, .a, header, pkg-config file)"
	@echo "                  (DESTDIR=, PREFIX=$(PREFIX); AUTOLOAD=1: load at boot);"
	@echo "                  install-module, install-user, install-marker: one part;"
	@echo "                  make uninstall"
	@echo "make sign KEY=K CERT=C  sign module/memdiag.ko for Secure Boot (see"
	@echo "                  Documentation/fleet.rst, Secure Boot)"
	@echo "make scale-check  calibrate, latency, loaded-latency, probe and stream against"
	@echo "                  likwid-bench and a plain chase on this machine: PASS/FAIL"
	@echo "                  per property (SCALE_ARGS=--quick; a few minutes)"
	@echo "make bench        memdiag's kernels against likwid-bench and a plain pointer"
	@echo "                  chase, interleaved, at 1, half and all of socket 0's CPUs,"
	@echo "                  at the CPU's widest SIMD width (10-25 min on 2 CPUs;"
	@echo "                  BENCH_QUICK=1: a few; BENCH_ARGS=--help for options);"
	@echo "                  a benchmark, not a test; then make bench-ctxsw"
	@echo "make bench-ctxsw  what counting DRAM bytes per cgroup adds to a context"
	@echo "                  switch, on the sim in a guest (CTXSW_KERNELS=KVER...)"

module:
	@if [ ! -d "$(KDIR)" ]; then \
		echo "make: no kernel build directory $(KDIR):" \
		     "install the headers of the running kernel, or set KDIR=" \
		     "(e.g. KDIR=/usr/src/linux-headers-$$(scripts/kernels.sh | tail -n1))" >&2; \
		exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

selftests: userspace
	$(MAKE) -C selftests

modules-all:
	@for k in $(KVERS); do scripts/build-module.sh $$k || exit 1; done

regen:
	scripts/ynl-gen.sh

check-regen:
	scripts/ynl-gen.sh --check

deps:
	scripts/deps.sh

# TEST="sim-run guest" runs only those tests (scripts/test.sh --list)
check:
	MEMDIAG_TEST="$(TEST)" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") scripts/test.sh

# make check plus the full rows of selftests/memdiag/vmtests (every VM test
# on every kernel it applies to) and the Secure Boot step: about an hour
# and a half on two cores
check-full:
	MEMDIAG_SUITE=full MEMDIAG_TEST="$(TEST)" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") scripts/test.sh

# the longer runs: the stress rows of selftests/memdiag/vmtests
stress:
	MEMDIAG_SUITE=stress MEMDIAG_TEST="$(TEST)" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") scripts/test.sh

# the VM tests on a 6.12 kernel with KASAN, lockdep, kmemleak and
# DEBUG_ATOMIC_SLEEP, built once into build/debug-kernel/ (long)
check-debug:
	MEMDIAG_SUITE=full MEMDIAG_KERNELS=debug MEMDIAG_VM_ONLY=1 MEMDIAG_TEST="$(TEST)" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") scripts/test.sh

# the storms, the fault injection, the netlink tests and the fuzzer on the
# debug kernel with KCSAN instead of KASAN (build/kcsan-kernel/, long),
# with the positive control first: the module's objects instrumented
# (scripts/kcsan-instrumented.sh) and a planted race reported
# (kcsan-canary); Documentation/races.rst
KCSAN_TESTS = kcsan-canary prefetch-fault genl-sim fuzz
check-kcsan:
	MEMDIAG_SUITE=full MEMDIAG_KERNELS=kcsan MEMDIAG_VM_ONLY=1 MEMDIAG_TEST="$(or $(TEST),$(KCSAN_TESTS))" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") scripts/test.sh

# line and branch coverage of module/ under the VM tests, on the debug
# kernel plus gcov (build/coverage-kernel/); Documentation/coverage.rst
coverage:
	MEMDIAG_TEST="$(TEST)" $(if $(JOBS),MEMDIAG_JOBS="$(JOBS)") $(if $(ADD),MEMDIAG_COVERAGE_ADD=1) scripts/coverage.sh
# the random and the coverage-guided netlink fuzzer on the KCOV kernel
# (build/coverage-kernel/), COUNT and SEED; Documentation/coverage.rst
fuzz-guided:
	$(if $(COUNT),MEMDIAG_FUZZ_COUNT="$(COUNT)") $(if $(SEED),MEMDIAG_FUZZ_SEED="$(SEED)") scripts/fuzz-guided.sh
# the sysadmin's path in a Debian 12 system guest (selftests/debian/check.sh)
check-debian:
	selftests/debian/check.sh

# the exporter's OCI image (Documentation/kubernetes.rst)
image:
	scripts/image.sh

check-image: image
	selftests/fleet/image.sh

run:
	MEMDIAG_SIM=$(MEMDIAG_SIM) scripts/run.sh $(ARGS)

# a benchmark, not a test: "make check" never runs it
bench:
	BENCH_QUICK=$(BENCH_QUICK) scripts/bench.sh $(BENCH_ARGS)
	scripts/bench-ctxsw.sh

# what the core estimate adds to a context switch, on the sim in a guest
bench-ctxsw:
	scripts/bench-ctxsw.sh $(CTXSW_KERNELS)

# memdiag's counter-free numbers against likwid-bench and a plain chase on
# this machine: one PASS/FAIL table (a check of the machine, not a test)
scale-check: userspace
	@mkdir -p build/bench
	@[ -x build/bench/chase ] || $(CC) -O2 -o build/bench/chase scripts/bench-chase.c
	@[ -x build/bench/read ] || $(CC) -O2 -pthread -o build/bench/read scripts/bench-read.c
	scripts/scale-check.sh $(SCALE_ARGS)

# Installation. Every installed path is named here once; uninstall
# removes exactly these (and depmod's view of the module).
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UNITDIR ?= $(PREFIX)/lib/systemd/system
MODULESLOADDIR ?= /etc/modules-load.d
MODDIR ?= /lib/modules/$(KVER)/updates
AUTOLOAD ?= 0
MODULE_KO ?= module/memdiag.ko
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
# memdiag-marker.pc's: the one version of userspace/Makefile
VERSION ?= $(shell sed -n 's/^VERSION ?= //p' userspace/Makefile)

INST_MODULE := $(DESTDIR)$(MODDIR)/memdiag.ko
INST_USER := $(DESTDIR)$(SBINDIR)/memdiagctl \
	$(DESTDIR)$(MANDIR)/man8/memdiagctl.8 \
	$(DESTDIR)$(BASHCOMPDIR)/memdiagctl \
	$(DESTDIR)$(UNITDIR)/memdiag-exporter.service
INST_AUTOLOAD := $(DESTDIR)$(MODULESLOADDIR)/memdiag.conf
# libmemdiag-marker (Documentation/marker.rst)
INST_MARKER := $(DESTDIR)$(LIBDIR)/libmemdiag-marker.a \
	$(DESTDIR)$(LIBDIR)/libmemdiag-marker.so.0 \
	$(DESTDIR)$(LIBDIR)/libmemdiag-marker.so \
	$(DESTDIR)$(LIBDIR)/pkgconfig/memdiag-marker.pc \
	$(DESTDIR)$(INCLUDEDIR)/memdiag_marker.h

install: install-module install-user install-marker

# depmod only for the real system: a DESTDIR is someone's staging tree
define depmod
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); \
	else echo "install: DESTDIR set: run 'depmod -a $(KVER)' on the target"; fi
endef

install-module:
	@[ -f $(MODULE_KO) ] || { echo "install: no $(MODULE_KO): run 'make module KVER=$(KVER)' first" >&2; exit 1; }
	@v=$$(modinfo -F vermagic $(MODULE_KO) | cut -d' ' -f1); \
	[ "$$v" = "$(KVER)" ] || { echo "install: $(MODULE_KO) is built for $$v, not KVER=$(KVER): 'make clean module KVER=$(KVER)'" >&2; exit 1; }
	install -D -m 0644 $(MODULE_KO) $(INST_MODULE)
	$(depmod)

uninstall-module:
	rm -f $(INST_MODULE)
	$(depmod)

install-user: userspace
	install -D -m 0755 userspace/memdiagctl $(DESTDIR)$(SBINDIR)/memdiagctl
	install -D -m 0644 Documentation/memdiagctl.8 $(DESTDIR)$(MANDIR)/man8/memdiagctl.8
	install -D -m 0644 dist/bash-completion/memdiagctl $(DESTDIR)$(BASHCOMPDIR)/memdiagctl
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@SBINDIR@|$(SBINDIR)|g' dist/systemd/memdiag-exporter.service.in \
		> $(DESTDIR)$(UNITDIR)/memdiag-exporter.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/memdiag-exporter.service
	@if [ "$(AUTOLOAD)" = 1 ]; then \
		install -D -m 0644 dist/modules-load.d/memdiag.conf $(INST_AUTOLOAD); \
	fi

uninstall-user:
	rm -f $(INST_USER) $(INST_AUTOLOAD)

install-marker: userspace
	install -D -m 0644 userspace/marker/libmemdiag-marker.a $(DESTDIR)$(LIBDIR)/libmemdiag-marker.a
	install -D -m 0755 userspace/marker/libmemdiag-marker.so.0 $(DESTDIR)$(LIBDIR)/libmemdiag-marker.so.0
	ln -sf libmemdiag-marker.so.0 $(DESTDIR)$(LIBDIR)/libmemdiag-marker.so
	install -D -m 0644 userspace/marker/memdiag_marker.h $(DESTDIR)$(INCLUDEDIR)/memdiag_marker.h
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/marker/memdiag-marker.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/memdiag-marker.pc
	chmod 0644 $(DESTDIR)$(LIBDIR)/pkgconfig/memdiag-marker.pc

uninstall-marker:
	rm -f $(INST_MARKER)

uninstall: uninstall-module uninstall-user uninstall-marker

# Sign module/memdiag.ko (or SIGN_MODULE=) with the user's key, for Secure
# Boot: KEY is the private key (PEM, or a pkcs11: URI), CERT its X.509
# certificate, the one enrolled with mokutil.
HASH ?= sha256
SIGN_MODULE ?= $(MODULE_KO)
SIGN_FILE ?= $(KDIR)/scripts/sign-file
sign:
	@[ -n "$(KEY)" ] && [ -n "$(CERT)" ] || { echo "sign: name the key: make sign KEY=signing_key.pem CERT=signing_cert.der (Documentation/fleet.rst, Secure Boot)" >&2; exit 1; }
	@[ -f "$(SIGN_MODULE)" ] || { echo "sign: no $(SIGN_MODULE): build it first (make module)" >&2; exit 1; }
	@[ -x "$(SIGN_FILE)" ] || { echo "sign: no $(SIGN_FILE): install the kernel headers, or set SIGN_FILE=" >&2; exit 1; }
	$(SIGN_FILE) $(HASH) $(KEY) $(CERT) $(SIGN_MODULE)
	@modinfo -F signer $(SIGN_MODULE) | sed 's/^/sign: signed by /'

clean:
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C selftests clean
	rm -rf build
