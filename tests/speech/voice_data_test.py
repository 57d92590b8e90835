# SPDX-License-Identifier: GPL-3.0-or-later
"""A voice that cannot start (issue 33): ESPEAK_DATA_PATH at a directory without espeak-ng's
data, as a broken install leaves it (phontab missing: espeak-ng would call exit(1) inside the
program unless told not to).

1. Live: tactiled stays up, the fault named in the status's `faults` and a `fault` log
   record, and the game goes on (a move made is logged and in the PGN).
2. `--replay --speech-wav` with the English dictionary missing (espeak-ng then synthesises
   silence): an error on stderr, exit 1, no WAV.
3. `--replay --speak` with no sound card (ALSA given an empty configuration): an error on
   stderr, exit 1; with a sound device (a file PCM) it plays and exits 0.

Usage: voice_data_test.py SOURCE_DIR BUILD_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from daemon_process import print_tail, stop  # noqa: E402
from waiting import wait_until  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
tactilectl_bin = os.path.join(build, "daemon", "tactilectl")
NO_START = "speech-device: espeak-ng could not start"


def log_records(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def live(work):
    empty = os.path.join(work, "no-voices")
    os.makedirs(empty)
    with open(os.path.join(work, "asound.conf"), "w") as f:
        f.write(f'pcm.board_a {{ type file slave.pcm "silent" file "{work}/a.raw" '
                'format "raw" }\npcm.silent { type null }\n')
    fifo = os.path.join(work, "board.fifo")
    os.mkfifo(fifo)
    log, pgn, sock = (os.path.join(work, n) for n in ("game.jsonl", "game.pgn", "control"))
    out_path = os.path.join(work, "tactiled.out")
    out = open(out_path, "wb")
    env = dict(os.environ, ESPEAK_DATA_PATH=empty,
               ALSA_CONFIG_PATH=os.path.join(work, "asound.conf"))
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log, "--pgn", pgn,
         "--control", sock, "--speech", "on", "--speech-device", "board_a",
         "--auto-resume", "off", "--language", "en", "--time-control", "300+0",
         "--completion", "auto", "--settle-ms", "200"],
        stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    started = time.monotonic()
    board = open(fifo, "w")
    try:
        # The game goes on: a move made is recorded (the loop logs the fault when it
        # first wakes, at the latest with this move).
        ms = int((time.monotonic() - started) * 1000) + 300
        board.write(f"{ms} A up e2\n{ms + 20} A down e4\n")
        board.flush()
        wait_until("1.e4 in the log", lambda: any(
            r.get("type") == "moment" and r.get("move") == "e2e4" for r in log_records(log)))
        faults = wait_until("the fault record", lambda: [
            r for r in log_records(log) if r.get("type") == "fault"])
        assert len(faults) == 1 and faults[0]["fault"].startswith(NO_START), faults
        print("log:", json.dumps(faults[0]))
        r = subprocess.run([tactilectl_bin, "status", "--json", "--socket", sock],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stdout + r.stderr
        status = json.loads(r.stdout)
        assert any(f.startswith(NO_START) for f in status["faults"]), status
        print("status faults:", status["faults"])
        assert tactiled.poll() is None, "tactiled ended"
    finally:
        code = stop(tactiled, 10)
        board.close()
        out.close()
        print_tail(out_path, 2000)
    assert code in (0, -15), f"tactiled exited {code}"


def replay(work):
    version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout
    system_data = re.search(r"Data at: (\S+)", version).group(1)
    data = os.path.join(work, "espeak", "espeak-ng-data")
    shutil.copytree(system_data, data)
    os.unlink(os.path.join(data, "en_dict"))
    script = os.path.join(work, "e4.txt")
    with open(script, "w") as f:
        f.write("1000 A up e2\n1200 A down e4\n1300 A button announce\n")
    wav = os.path.join(work, "out.wav")
    common = [tactiled_bin, "--replay", script, "--pgn", os.path.join(work, "r.pgn"),
              "--language", "en"]
    r = subprocess.run(common + ["--speech-wav", wav], capture_output=True, text=True,
                       env=dict(os.environ, ESPEAK_DATA_PATH=os.path.join(work, "espeak")))
    print("--speech-wav without the dictionary:", r.returncode, r.stderr.strip())
    assert r.returncode == 1, r
    assert "gives silence" in r.stderr, r.stderr
    assert not os.path.exists(wav), "a silent WAV was written"
    # No voice data at all: espeak-ng cannot start, an error too (not an exit inside it).
    r = subprocess.run(common + ["--speech-wav", wav], capture_output=True, text=True,
                       env=dict(os.environ, ESPEAK_DATA_PATH=os.path.join(work, "no-voices")))
    print("--speech-wav without voice data:", r.returncode, r.stderr.strip())
    assert r.returncode == 1 and "espeak-ng could not start" in r.stderr, r
    # --speak with no sound card: ALSA's configuration without a default device.
    empty_conf = os.path.join(work, "empty-asound.conf")
    with open(empty_conf, "w") as f:
        f.write("pcm.!default { type hw card 99 }\n")
    r = subprocess.run(common + ["--speak"], capture_output=True, text=True,
                       env=dict(os.environ, ALSA_CONFIG_PATH=empty_conf))
    print("--speak without a sound card:", r.returncode, r.stderr.strip())
    assert r.returncode == 1 and "default" in r.stderr, r
    # With a device (a file PCM), it plays and ends well.
    file_conf = os.path.join(work, "file-asound.conf")
    with open(file_conf, "w") as f:
        f.write(f'pcm.!default {{ type file slave.pcm "null" file "{work}/played.raw" '
                'format "raw" }\npcm.null { type null }\n')
    r = subprocess.run(common + ["--speak"], capture_output=True, text=True,
                       env=dict(os.environ, ALSA_CONFIG_PATH=file_conf))
    assert r.returncode == 0, r
    assert os.path.getsize(os.path.join(work, "played.raw")) > 0, "nothing played"


with tempfile.TemporaryDirectory() as work:
    os.makedirs(os.path.join(work, "live"))
    os.makedirs(os.path.join(work, "replay"))
    os.makedirs(os.path.join(work, "replay", "no-voices"))
    live(os.path.join(work, "live"))
    replay(os.path.join(work, "replay"))
    print("PASS")
