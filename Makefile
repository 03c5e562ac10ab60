# SPDX-License-Identifier: GPL-2.0
# memdiag - top-level build. Kbuild (in Kbuild and module/Kbuild) builds the
# module; this file drives it, the CLI, code generation and the tests.

KDIR ?= /lib/modules/$(shell uname -r)/build

# Build directory of each Debian kernel the tests cover.
KVERS = $(shell scripts/kernels.sh)

.PHONY: all module userspace selftests modules-all regen check-regen \
	check stress check-debug run bench deps clean help

all: module userspace

help:
	@echo "make              build module/memdiag.ko (KDIR=$(KDIR)) and memdiagctl"
	@echo "make module       only the module; KDIR=/path/to/kernel/build to choose"
	@echo "make userspace    only userspace/memdiagctl"
	@echo "make modules-all  the module for every Debian kernel here, into build/KVER/"
	@echo "make regen        regenerate the UAPI header and genl_gen.[ch] from the YNL spec"
	@echo "make check        install what is missing and run every test;"
	@echo "                  TEST=\"name ...\" only those (scripts/test.sh --list names them)"
	@echo "make stress       the longer VM tests (fuzzer 10^6 messages per kernel, storms)"
	@echo "make check-debug  the VM tests on a 6.12 kernel built with KASAN, lockdep,"
	@echo "                  kmemleak and DEBUG_ATOMIC_SLEEP (the first build is long)"
	@echo "make run          install what is missing, build, and run 'memdiagctl info'"
	@echo "                  (natively if this host can load modules, else in a VM)"
	@echo "make bench        memdiag's kernels against likwid-bench and a plain pointer"
	@echo "                  chase, interleaved (about 11 min; BENCH_QUICK=1: about 1.5;"
	@echo "                  BENCH_ARGS=--help for options); a benchmark, not a test"

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
	MEMDIAG_TEST="$(TEST)" scripts/test.sh

# the longer runs: the stress rows of selftests/memdiag/vmtests
stress:
	MEMDIAG_SUITE=stress MEMDIAG_TEST="$(TEST)" scripts/test.sh

# the VM tests on a 6.12 kernel with KASAN, lockdep, kmemleak and
# DEBUG_ATOMIC_SLEEP, built once into build/debug-kernel/ (long)
check-debug:
	MEMDIAG_KERNELS=debug MEMDIAG_VM_ONLY=1 MEMDIAG_TEST="$(TEST)" scripts/test.sh

run:
	MEMDIAG_SIM=$(MEMDIAG_SIM) scripts/run.sh $(ARGS)

# a benchmark, not a test: "make check" never runs it
bench:
	BENCH_QUICK=$(BENCH_QUICK) scripts/bench.sh $(BENCH_ARGS)

clean:
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C selftests clean
	rm -rf build
