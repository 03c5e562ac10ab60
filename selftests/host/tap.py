# SPDX-License-Identifier: GPL-2.0
"""tap.py - the TAP output every Python host test prints: checks recorded
as they are made, printed at the end, exit 1 if any failed. The C host
tests have the same in tap.h."""

import sys


class Results:
    """Checks as TAP: check() records one, finish() prints them and exits
    non-zero if any failed. @prefix starts every test name."""

    def __init__(self, prefix=''):
        self.prefix = prefix
        self.results = []

    def check(self, ok, name, why=''):
        self.results.append((bool(ok), self.prefix + name, why))

    def finish(self, more_than=0):
        """Print and exit; with @more_than, no more checks than that is one
        more failure (a table the dump program lost would pass vacuously)."""
        if more_than:
            self.check(len(self.results) > more_than,
                       'the oracle checked a meaningful number of facts (%d)'
                       % len(self.results))
        print('TAP version 13')
        print('1..%d' % len(self.results))
        for i, (ok, name, why) in enumerate(self.results, 1):
            print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
            if not ok and why:
                print('#   %s' % why)
        sys.exit(0 if all(r[0] for r in self.results) else 1)

    def checker(self):
        """check(name, ok): the argument order the bench tests use."""
        return lambda name, ok: self.check(ok, name)
