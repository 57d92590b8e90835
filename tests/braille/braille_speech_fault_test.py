# SPDX-License-Identifier: GPL-3.0-or-later
"""A voice that cannot be heard, on the braille display (label "braille"): tactiled live in
English on a script board, its speech on an ALSA file PCM (no sound card) with espeak-ng's
data copied without the English dictionary (ESPEAK_DATA_PATH), as a broken install leaves
it: espeak-ng synthesises silence. A real brltty (tests/braille/brltty_server.py) shows the
fault to the player at once; it is in the log too; the next move ends it on the display.

Usage: braille_speech_fault_test.py SOURCE_DIR BUILD_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from brltty_server import Brltty, free_brlapi_number, require_brltty, wait_until  # noqa: E402
from daemon_process import print_tail, stop  # noqa: E402
from virtual_display import VirtualDisplay  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
require_brltty()
FAULT = ("speech-device: espeak-ng voice 'en-us+klatt2' gives silence (is its data missing from "
         "espeak-ng-data?)")

with tempfile.TemporaryDirectory() as work:
    version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout
    system_data = re.search(r"Data at: (\S+)", version).group(1)
    data = os.path.join(work, "espeak", "espeak-ng-data")
    shutil.copytree(system_data, data)
    os.unlink(os.path.join(data, "en_dict"))
    with open(os.path.join(work, "asound.conf"), "w") as f:
        f.write(f'pcm.board_a {{ type file slave.pcm "silent" file "{work}/a.raw" '
                'format "raw" }\npcm.silent { type null }\n')
    number = free_brlapi_number()
    key = os.path.join(work, "brlapi.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    brltty = Brltty(work, number, key)
    display = VirtualDisplay(brltty.sock, 40)
    fifo = os.path.join(work, "board.fifo")
    os.mkfifo(fifo)
    log = os.path.join(work, "game.jsonl")
    out = open(os.path.join(work, "tactiled.out"), "wb")
    env = dict(os.environ, ESPEAK_DATA_PATH=os.path.join(work, "espeak"),
               ALSA_CONFIG_PATH=os.path.join(work, "asound.conf"))
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log,
         "--pgn", os.path.join(work, "game.pgn"), "--control", "off", "--speech", "on",
         "--speech-device", "board_a", "--auto-resume", "off", "--language", "en",
         "--time-control", "300+0", "--completion", "auto", "--settle-ms", "200",
         "--braille", "on", "--braille-host", f"127.0.0.1:{number}",
         "--braille-key-file", key],
        stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    started = time.monotonic()
    board = open(fifo, "w")
    try:
        # The fault on the display, as the game begins.
        shown = display.wait_for("the speech fault", lambda t: t.startswith("! speech-device"),
                                 timeout=10)
        print("the display showed: |" + shown + "|")
        # A 40-cell page of it: the start of the fault's words, " >" when more follows.
        page = shown.rstrip()
        page = page[:-2] if page.endswith(" >") else page
        assert ("! " + FAULT).startswith(page), shown
        with open(log) as f:
            faults = [json.loads(line) for line in f if '"fault"' in line]
        assert [r.get("fault") for r in faults] == [FAULT], faults
        # The game goes on; its next move takes the display back to the game's line.
        ms = int((time.monotonic() - started) * 1000) + 300
        board.write(f"{ms} A up e2\n{ms + 20} A down e4\n")
        board.flush()
        shown = display.wait_for("1.e4 on the display",
                                 lambda t: t.startswith("1.e4"), timeout=10)
        print("then: |" + shown + "|")
        wait_until("a.raw", lambda: os.path.exists(os.path.join(work, "a.raw")))
        assert os.path.getsize(os.path.join(work, "a.raw")) == 0, "silence was played"
        print("PASS")
    finally:
        brltty.stop(display)
        stop(tactiled, 10)
        board.close()
        out.close()
        print_tail(os.path.join(work, "tactiled.out"), 3000)
