# SPDX-License-Identifier: GPL-3.0-or-later
"""A real brltty for the braille tests: brltty 6.5's Virtual driver, headless, BrlAPI on a
free loopback port with a key file (tests/braille/virtual_display.py plays the display)."""
import os
import shutil
import socket
import subprocess
import sys
import time

import daemon_process  # tests/pylib, on the tests' sys.path
from waiting import wait_until

BRLAPI_BASE_PORT = 4101  # BrlAPI's "host:N" is TCP port 4101 + N


def require_brltty():
    """Exits 1 naming what is missing when this brltty cannot serve the tests."""
    if not shutil.which("brltty"):
        print("brltty is not installed (script/setup installs it)")
        sys.exit(1)
    # Debian 12's brltty 6.5 has the Virtual driver; upstream dropped it after 6.9.1 (then the
    # tt driver on a pseudo-terminal would have to play the display instead).
    if not any(os.path.exists(os.path.join(d, "libbrlttybvr.so"))
               for d in ("/lib/brltty", "/usr/lib/brltty", "/usr/lib/x86_64-linux-gnu/brltty")):
        print("this brltty has no Virtual (vr) braille driver: the test needs it")
        sys.exit(1)


def free_brlapi_number():
    """A BrlAPI server number N whose TCP port (4101 + N) is free on loopback now."""
    for n in list(range(20, 400, 7)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", BRLAPI_BASE_PORT + n))
                return n
            except OSError:
                continue
    raise RuntimeError("no free BrlAPI port")


class Brltty:
    """A real brltty: Virtual driver on `sock`, BrlAPI on 127.0.0.1:N with a key file, no
    screen, no speech, the text table pinned (the dots of the letters are brltty's)."""

    def __init__(self, work, number, key):
        self.sock = os.path.join(work, "vr.sock")
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        self.log = open(os.path.join(work, "brltty.log"), "ab")
        self.proc = subprocess.Popen(
            ["brltty", "-n", "-e", "-q", "-l", "info", "-f", "/dev/null",
             "-F", os.path.join(work, "brltty.prefs"), "-W", work, "-U", work,
             "-P", os.path.join(work, "brltty.pid"), "-t", "en-nabcc", "--start-message=",
             "-x", "no", "-s", "no", "-b", "vr", "-d", "server:" + self.sock,
             "-A", f"auth=keyfile:{key},host=127.0.0.1:{number}"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until("brltty's Virtual driver socket", lambda: os.path.exists(self.sock))

    def stop(self, display):
        # brltty ignores SIGTERM until a display has connected: stop it while ours is.
        daemon_process.stop(self.proc, 5)
        display.close()
        self.log.close()
