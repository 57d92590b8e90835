# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Python test programs of several folders share about a program they started as
a subprocess.Popen (tactiled, brltty): its stop at the end of a test, and what it printed,
shown in the test's own output for whoever reads a failure. Each test adds this folder to
sys.path."""
import signal
import subprocess
import sys


def stop(process, timeout):
    """SIGTERM, as its service is stopped; SIGKILL when it has not ended within timeout
    seconds. Its exit status."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return process.returncode


def say_unclean_exit(name, process):
    """A line when the stopped process ended otherwise than by our SIGTERM (a crash, a
    sanitizer's report, the SIGKILL after the wait)."""
    if process.returncode not in (0, -signal.SIGTERM):
        print(name, "exited with", process.returncode)


def print_tail(path, chars):
    """The last chars characters of a program's output file (bytes that are not UTF-8
    replaced, so that a broken output cannot hide the test's own failure)."""
    with open(path, errors="replace") as f:
        sys.stdout.write(f.read()[-chars:])
