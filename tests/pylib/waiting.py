# SPDX-License-Identifier: GPL-3.0-or-later
"""Waiting on an event, never on the machine's speed: what the Python test programs of
several folders share. Each test adds this folder to sys.path."""
import time


def wait_until(what, check, timeout=20.0):
    """Polls check() until it returns a true value (returned), failing after timeout s. The
    last look comes after the timeout, so a machine that was busy meanwhile still sees the
    event that came."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)
