# SPDX-License-Identifier: GPL-3.0-or-later
"""tactiled's braille display against a real brltty (label "braille"): brltty 6.5 with its
Virtual driver, headless, on a loopback BrlAPI port with a key file; the display is
tests/braille/virtual_display.py on the driver's socket. tactiled (live, board = script
on a FIFO) starts before brltty is there and finds it when it comes; the status lines of
a game are read back from the display, and the display's keys drive announce (the clocks'
start and the moves), a time warning, time, correct, record (and LNDN, the pair before, FWINRT the next),
check, a promotion typed in braille dots; brltty is stopped and started again with a 20-cell display: tactiled
reconnects and pages its line (FWINRT). Every wait is bounded; everything is killed at the
end.

Usage: braille_live_test.py SOURCE_DIR BUILD_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from brltty_server import Brltty, free_brlapi_number, require_brltty, wait_until  # noqa: E402
from daemon_process import print_tail, say_unclean_exit, stop  # noqa: E402
from virtual_display import VirtualDisplay, dots  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
require_brltty()


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def log_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def buttons_in_log(path):
    return [r.get("button") for r in log_records(path) if r.get("type") == "button"]


CLOCK = r"\d:\d\d:\d\d"

KEEP = os.environ.get("BRAILLE_TEST_KEEP")  # a folder that keeps the run's files and logs
with tempfile.TemporaryDirectory() as _tmp:
    work = KEEP or _tmp
    number = free_brlapi_number()
    key = os.path.join(work, "brlapi.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    fifo = os.path.join(work, "board.fifo")
    os.mkfifo(fifo)
    log = os.path.join(work, "game.jsonl")
    out = open(os.path.join(work, "tactiled.out"), "wb")
    # White's pawn on a7 promotes; Black's king walks (h-pawns: no dead position). Five
    # minutes each.
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log,
         "--pgn", os.path.join(work, "game.pgn"), "--control", "off", "--speech", "off",
         "--auto-resume", "off", "--language", "en", "--time-control", "300+0",
         "--start-fen", "4k3/P6p/8/8/8/8/7P/4K3 w - - 0 1", "--completion", "button",
         "--braille", "on", "--braille-host", f"127.0.0.1:{number}",
         "--braille-key-file", key, "--time-warnings", "4:58",
         # The Virtual driver's ROUTE takes cells from 1 (its "ROUTE 0" is refused), so
         # announce is moved to cell 10 here: the map is the configured one, the other
         # keys the default's.
         "--braille-keys", "ROUTE10=announce"],
        stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    started = time.monotonic()
    board = open(fifo, "w")
    brltty = display = None
    transcript = []

    def holes_in_log():
        # (Counted by text: the line being written may be incomplete.)
        return read(log).count('"type":"hole"')

    def move(*events):
        """Board events stamped just ahead of the game's clock (queued until then), and
        waited for in the log: a key pressed next comes after them however slow the
        machine (an announce before them would be "Nothing moved")."""
        before = holes_in_log()
        ms = int((time.monotonic() - started) * 1000) + 300
        for e in events:
            board.write(f"{ms} A {e}\n")
            ms += 20
        board.flush()
        wait_until("the board's events in the log",
                   lambda: holes_in_log() >= before + len(events))

    def see(what, pattern, timeout=10.0, since=0):
        text = display.wait_for(what, lambda t: re.fullmatch(pattern, t) is not None,
                                timeout, since)
        transcript.append(text)
        return text

    try:
        # No brltty yet: the game runs without its display.
        time.sleep(0.8)
        assert tactiled.poll() is None, "tactiled stopped without a braille display"
        brltty = Brltty(work, number, key)
        display = VirtualDisplay(brltty.sock, 40)

        # Found within its retry: the start position, clocks waiting, White to move.
        see("the start line", r"- W0:05:00 B0:05:00 W1", timeout=8)

        # ROUTE 10 = announce (configured): on the start position it starts White's clock.
        at = display.mark()
        display.press("ROUTE 10")
        see("White's clock running", r"- W0:04:5\d B0:05:00 W1", since=at)

        # White's time warning at 4:58 (two seconds on): shown at once, as it is said.
        # Wider than 40 cells with "seconds": its first page, which says more follows.
        see("the time warning", r"! White, four minutes fifty-eight( seconds| >)", since=at,
            timeout=6)

        # ROUTE 1 = time (his clocks spoken; logged as his press).
        display.press("ROUTE 1")
        wait_until("the time press in the log", lambda: "time" in buttons_in_log(log))

        # a7-a8, the knight typed in braille (n: dots 1 3 4 5 through brltty's text
        # table), then announce.
        move("up a7", "down a8")
        time.sleep(0.5)
        display.press(dots(1, 3, 4, 5))
        wait_until("the promotion press", lambda: "promote-n" in buttons_in_log(log))
        at = display.mark()
        display.press("ROUTE 10")
        see("1.a8=N", rf"1\.a8=N W{CLOCK} B0:0[45]:\d\d B1", since=at)

        # ROUTE 3 = correct: reaches the game as his correct press.
        display.press("ROUTE 3")
        wait_until("the correct press", lambda: "correct" in buttons_in_log(log))

        # Black's king e8-d7.
        move("up e8", "down d7")
        time.sleep(0.5)
        at = display.mark()
        display.press("ROUTE 10")
        see("1...Kd7", rf"1\.\.\.Kd7 W{CLOCK} B{CLOCK} W2", since=at)

        # White's h2-h3: two pairs in the record.
        move("up h2", "down h3")
        time.sleep(0.5)
        at = display.mark()
        display.press("ROUTE 10")
        see("2.h3", rf"2\.h3 W{CLOCK} B{CLOCK} B2", since=at)

        # ROUTE 4 = record: the last pair; LNDN (record again) the pair before; FWINRT the
        # next pair.
        at = display.mark()
        display.press("ROUTE 4")
        see("the record's last pair", r"2\.h3", since=at)
        at = display.mark()
        display.press("LNDN")
        see("the pair before", r"1\.a8=N Kd7", since=at)
        at = display.mark()
        display.press("FWINRT")
        see("the next pair", r"2\.h3", since=at)
        # A few seconds on, the status line again (or Black's own 4:58 warning, if his
        # clock reached it meanwhile: an alert stays until a key, the check below).
        see("the status line back", rf"2\.h3 W{CLOCK} B{CLOCK} B2|! Black, .*", timeout=10,
            since=display.mark())

        # ROUTE 5 = check: the answer shown (and said): the pegs are where the game has them.
        at = display.mark()
        display.press("ROUTE 5")
        see("the check's answer", r"Board agrees", since=at)

        # Issue 29: a refusal at once, in words, with what to do. Black's king d7-d5: the
        # whole sentence is wider than 40 cells, so its first page says more follows.
        move("up d7", "down d5")
        time.sleep(0.5)
        at = display.mark()
        display.press("ROUTE 10")
        see("the illegal move's first page", r"! Illegal: king .* >", since=at)
        at = display.mark()
        display.press("FWINRT")
        see("the illegal move's last page", r".*back on [^>]*", since=at)
        # Put back: the refusal stays (no move, no key), never a status line meanwhile.
        at = display.mark()
        move("up d5", "down d7")
        time.sleep(1.5)
        since_put_back = display.shown[at:]
        assert all("back on" in t for t in since_put_back + [display.text()]), \
            f"the refusal went before a move or a key: {since_put_back}"
        # announce with nothing moved: the key ends the refusal, and says why it does nothing.
        at = display.mark()
        display.press("ROUTE 10")
        see("announce with nothing moved", r"! Nothing moved", since=at)
        # Black's king d7-e6: the move made ends it.
        move("up d7", "down e6")
        time.sleep(0.5)
        at = display.mark()
        display.press("ROUTE 10")
        see("2...Ke6", rf"2\.\.\.Ke6 W{CLOCK} B{CLOCK} W3", since=at)

        # brltty goes away (the game goes on) and comes back with a 20-cell display.
        brltty.stop(display)
        time.sleep(0.5)
        assert tactiled.poll() is None, "tactiled stopped when brltty did"
        brltty = Brltty(work, number, key)
        # brltty's API answers before a display is there, with no cells: tactiled writes
        # nothing (a write now would be an exception that aborts a BrlAPI client) and asks
        # again shortly.
        wait_until("tactiled on the display-less brltty", lambda: "has no display yet (0 "
                   "cells)" in read(os.path.join(work, "tactiled.out")))
        time.sleep(1.0)
        assert tactiled.poll() is None, "tactiled stopped on a brltty without a display"
        display = VirtualDisplay(brltty.sock, 20)
        # 40 cells of line in pages of 20, broken between words, the first saying more
        # follows.
        see("the first page", rf"2\.\.\.Ke6 W{CLOCK} >", timeout=8)
        at = display.mark()
        display.press("FWINRT")
        see("the second page", rf"B{CLOCK} W3", since=at)

        expected = ["time", "promote-n", "correct", "record", "record", "check"]
        got = [b for b in buttons_in_log(log) if b != "announce"]
        assert got == expected, f"the display's presses: {got}, expected {expected}"
        print("PASS; the display showed:")
        for line in transcript:
            print("  |" + line + "|")
    finally:
        if brltty and display:
            brltty.stop(display)
        elif brltty:
            brltty.proc.kill()
            brltty.proc.wait()
        stop(tactiled, 10)
        board.close()
        out.close()
        say_unclean_exit("tactiled", tactiled)
        print_tail(os.path.join(work, "tactiled.out"), 3000)
