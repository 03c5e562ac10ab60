#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""efi-console.py LOG PASSWORD -- QEMU ARGS...

Run QEMU with its serial console on this process's pipes, append
everything it prints to LOG and, when shim's MokManager asks, enroll the
pending Machine Owner Key as an administrator does at the console:
a key at "Press any key to perform MOK management", then "Enroll MOK",
"Continue", "Yes", the password that "mokutil --import" was given, and
"Reboot". Each screen is recognised by its text once the terminal's
escape sequences are taken out; the keys are the ones a VT100 terminal
sends (the firmware's terminal driver turns them into UEFI key strokes).

Exit: QEMU's status, or 100 when MokManager enrolled the key and reset
the machine (QEMU runs with -no-reboot: the caller boots again), or 3
when MokManager showed a screen this script does not know (no expected
screen within STALL seconds: QEMU is stopped). Each MokManager step and
its time go to stderr.
"""
import os
import re
import select
import signal
import subprocess
import sys
import time

DOWN = b"\x1b[B"
ENTER = b"\r"
# each screen's text and the key strokes that answer it, in the order
# shim 16's MokManager shows them for one pending key; None: the password
STEPS = [
    ("Press any key to perform MOK management", [ENTER], "any key"),
    ("Enroll MOK", [DOWN, ENTER], "main menu: Enroll MOK"),
    ("View key 0", [DOWN, ENTER], "Enroll MOK: Continue"),
    ("Enroll the key(s)?", [DOWN, ENTER], "Enroll the key(s)?: Yes"),
    ("Password:", None, "password typed"),
    ("Perform MOK management", [ENTER], "Reboot"),
]
# seconds from one MokManager screen to the next (TCG draws them in one
# or two; the first one's own countdown is 10 s)
STALL = 120
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|[\x00-\x08\x0e-\x1f]")


def log(msg):
    sys.stderr.write("efi-console: %s\n" % msg)
    sys.stderr.flush()


def main():
    if len(sys.argv) < 4 or sys.argv[3] != "--":
        sys.stderr.write(__doc__)
        return 2
    logpath, password, qemu = sys.argv[1], sys.argv[2].encode(), sys.argv[4:]
    proc = subprocess.Popen(qemu, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    # timeout(1) ends this script with SIGTERM: QEMU ends with it
    signal.signal(signal.SIGTERM, lambda *_: (proc.kill(), sys.exit(124)))
    out = open(logpath, "ab")
    screen = b""  # what was printed since the last key sent, as text
    step = 0
    start = time.time()
    fd = proc.stdout.fileno()

    def send(keys, what):
        nonlocal screen
        # the firmware polls its serial port: one key stroke at a time
        for key in keys:
            proc.stdin.write(key)
            proc.stdin.flush()
            time.sleep(0.3)
        log("MokManager: %s (%.0f s)" % (what, time.time() - start))
        screen = b""

    last = time.time()
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            if proc.poll() is not None:
                break
            if 0 < step < len(STEPS) and time.time() - last > STALL:
                log("MokManager: no '%s' within %d s; it shows: %s" %
                    (STEPS[step][0], STALL, screen[-400:].decode(errors="replace")))
                proc.kill()
                proc.wait()
                return 3
            continue
        data = os.read(fd, 65536)
        if not data:
            break
        out.write(data)
        out.flush()
        screen += ANSI.sub(b"", data)
        screen = screen[-8192:]
        if step >= len(STEPS):
            continue
        text, keys, what = STEPS[step]
        if text.encode() not in screen:
            continue
        time.sleep(1)  # let the menu finish drawing before the key
        send(keys or [bytes([c]) for c in password] + [ENTER], what)
        step += 1
        last = time.time()
    rc = proc.wait()
    if 0 < step < len(STEPS):
        log("MokManager: QEMU ended after step %d of %d" % (step, len(STEPS)))
    elif step == len(STEPS) and rc == 0:
        return 100
    return rc


if __name__ == "__main__":
    sys.exit(main())
