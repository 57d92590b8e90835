# SPDX-License-Identifier: GPL-3.0-or-later
"""The game's end replaces a warning on the braille display at once (issue 33), against a
real brltty (label "braille"): tactiled live in English on a script board, 12 seconds
each, warnings at 0:10 and 0:05, no speech. The announce press on the start position
starts White's clock; the display shows "! White, five seconds", then, with no key
pressed, the flag's end line, and keeps it (the warning never comes back).

Usage: braille_flag_test.py SOURCE_DIR BUILD_DIR"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from brltty_server import Brltty, free_brlapi_number, require_brltty  # noqa: E402
from daemon_process import print_tail, stop  # noqa: E402
from virtual_display import VirtualDisplay  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
require_brltty()

with tempfile.TemporaryDirectory() as work:
    number = free_brlapi_number()
    key = os.path.join(work, "brlapi.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    brltty = Brltty(work, number, key)
    display = VirtualDisplay(brltty.sock, 40)
    fifo = os.path.join(work, "board.fifo")
    os.mkfifo(fifo)
    log = os.path.join(work, "game.jsonl")  # kept for whoever reads a failure
    out = open(os.path.join(work, "tactiled.out"), "wb")
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log,
         "--pgn", os.path.join(work, "game.pgn"), "--control", "off", "--speech", "off",
         "--auto-resume", "off", "--language", "en", "--time-control", "12",
         "--time-warnings", "0:10,0:05",
         "--braille", "on", "--braille-host", f"127.0.0.1:{number}",
         "--braille-key-file", key],
        stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    started = time.monotonic()
    board = open(fifo, "w")
    try:
        display.wait_for("the status line", lambda t: t.startswith("-"), timeout=10)
        ms = int((time.monotonic() - started) * 1000) + 300
        board.write(f"{ms} A button announce\n")  # the clocks start
        board.flush()
        display.wait_for("the five-second warning",
                         lambda t: t.startswith("! White, five seconds"), timeout=20)
        since = display.mark()
        end = display.wait_for("the flag's end at once, no key pressed",
                               lambda t: t.startswith("! 0-1"), timeout=10, since=since)
        print("after the flag the display showed: |" + end + "|")
        # The end stays: two seconds later the display shows it still.
        time.sleep(2)
        assert display.text().startswith("! 0-1"), display.text()
        print("PASS")
    finally:
        brltty.stop(display)
        stop(tactiled, 10)
        board.close()
        out.close()
        print_tail(os.path.join(work, "tactiled.out"), 2000)
