# SPDX-License-Identifier: GPL-2.0
# lib.mk - the subset of the kernel's tools/testing/selftests/lib.mk that
# memdiag's selftest targets use, with the same variable names and targets,
# so that a target directory (memdiag/) reads and runs as a kselftest:
#   TEST_GEN_PROGS  C tests built here into $(OUTPUT) and run
#   TEST_GEN_PROGS_EXTENDED  C programs built there, run by the tests
#   TEST_PROGS      scripts run as they are
#   TEST_FILES      files the tests need (helpers, data)
#   run_tests       run every test (or those in TESTS="a b") with the
#                   timeout of ./settings, printing KTAP as the kernel's
#                   kselftest/runner.sh does
# Built programs go to $(OUTPUT) (default: this directory), as in the kernel.

OUTPUT ?= $(CURDIR)
TEST_GEN_PROGS := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_PROGS))
TEST_GEN_PROGS_EXTENDED := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_PROGS_EXTENDED))
selfdir := $(dir $(lastword $(MAKEFILE_LIST)))

all: $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED)

$(OUTPUT)/%: %.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)

run_tests: all
	@$(selfdir)runner.sh "$(notdir $(CURDIR))" "$(or $(TESTS),$(notdir $(TEST_GEN_PROGS)) $(TEST_PROGS))"

clean:
	rm -f $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(EXTRA_CLEAN)

.PHONY: all run_tests clean
