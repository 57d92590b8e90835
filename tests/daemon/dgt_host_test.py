# SPDX-License-Identifier: GPL-3.0-or-later
"""tactiled as a DGT board (issue 36, docs/dgt.md), end to end: the real tactiled plays a
game on a script board (a FIFO) with `--dgt-port` a path where it makes a pseudo-terminal's
link, and this program is the DGT host on that link through pyserial, connecting as HOST
does (written from the protocol as the issue describes it, not from any host's code):

- picochess: 0x4b, 0x4d, 0x42, a clock command (the clock's version, acked), then 0x45
  every second as a watchdog; it reads the board from full dumps;
- dgtnix: 0x40, 0x42 (a dump within 1.5 s), then 0x45 0x46 0x4d 0x47 0x43 (and 0x49 0x55
  0x4c), every answer well formed; it follows the field updates;
- livechess: 0x40 0x40 0x40, 0x47 ("Digital Game Technology..."), 0x46, 0x4a, then bus frames
  (0x8b 0x00 0x00 0x0b first), every reply carrying the board's address and a right checksum;
  it follows the changes it polls.

The game (from a position that has them all): en passant, castling on both wings, a capture
that promotes, a capture, an illegal move put back. After every move the board the host
has (the dump, or its updates applied in order) is the game's, and the clock is within a
second of `tactilectl status`. At the end, 1,000 random bytes change nothing: the game, its
log's moves and the board reported stay as they were, and tactiled still answers.

With `device`, the port is a character device (a pseudo-terminal's slave this program
made, as /dev/ttyGS0 would be): tactiled opens it raw, answers on it, and when it fails (the
master closed, as a gadget unbound) logs it and plays on.

Usage: dgt_host_test.py SOURCE_DIR BUILD_DIR picochess|dgtnix|livechess|device"""
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

import serial

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from daemon_process import print_tail, say_unclean_exit, stop  # noqa: E402
from sim_dgt_board import CODES, field, fields_of  # noqa: E402  (the one codec)
from waiting import wait_until  # noqa: E402

source, build, host = sys.argv[1], sys.argv[2], sys.argv[3]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
tactilectl_bin = os.path.join(build, "daemon", "tactilectl")

START = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"
# exd6 e.p., O-O, O-O-O, Re8, bxa8=Q, Rxa8, d7.
GAME = ["e5d6", "e8g8", "e1c1", "f8e8", "b7a8q", "e8a8", "d6d7"]
ADDRESS = None  # the board's bus address, as 0x46 says it


def pieces_of(board):
    return {"abcdefgh"[i % 8] + str(8 - i // 8): c for i, c in enumerate(board) if c}


def after(board, uci):
    """The 64 codes after move `uci` (worked out here, not asked of tactiled): en passant's
    pawn taken, castling's rook moved, a promotion's new piece."""
    board = list(board)
    frm, to = field(uci[0:2]), field(uci[2:4])
    piece = board[frm]
    if piece in (1, 7) and frm % 8 != to % 8 and board[to] == 0:
        board[(frm // 8) * 8 + to % 8] = 0
    if piece in (5, 11) and abs(frm - to) == 2:
        rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
        board[rook_to], board[rook_from] = board[rook_from], 0
    if len(uci) == 5:
        piece = CODES[uci[4].upper() if piece == 1 else uci[4]]
    board[to], board[frm] = piece, 0
    return board


def fen_of(board):
    """The board part of a FEN."""
    letters = {c: k for k, c in CODES.items()}
    rows = []
    for r in range(8):
        row, empty = "", 0
        for c in board[r * 8:r * 8 + 8]:
            if c == 0:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letters[c]
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def hole_steps(board, uci):
    """A hand's lifts and puts for `uci` (a captured piece off first)."""
    pieces = pieces_of(board)
    frm, to = uci[0:2], uci[2:4]
    mover = pieces[frm]
    if mover in (5, 11) and abs(ord(frm[0]) - ord(to[0])) == 2:
        rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
        return [("up", frm), ("down", to), ("up", rook_from + frm[1]),
                ("down", rook_to + frm[1])]
    steps = [("up", to)] if to in pieces else []
    steps += [("up", frm), ("down", to)]
    if mover in (1, 7) and frm[0] != to[0] and to not in pieces:
        steps.append(("up", to[0] + frm[1]))
    return steps


class Host:
    """The DGT host on the link: every message the board sends, parsed as it comes."""

    def __init__(self, path):
        self.port = serial.Serial(path, 9600, timeout=0.05)
        self.messages = []
        self.lock = threading.Condition()
        self.buffer = b""
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while self.running:
            data = self.port.read(512)
            if not data:
                continue
            with self.lock:
                self.buffer += data
                while len(self.buffer) >= 3:
                    mid, hi, lo = self.buffer[0], self.buffer[1], self.buffer[2]
                    assert mid & 0x80, f"a message id without bit 7: {self.buffer[:8].hex()}"
                    assert hi < 0x80 and lo < 0x80, f"a length byte with bit 7: {mid:#x}"
                    length = hi << 7 | lo
                    assert length >= 3, f"message {mid:#x} of length {length}"
                    if len(self.buffer) < length:
                        break
                    data_bytes = self.buffer[3:length]
                    assert all(b < 0x80 for b in data_bytes), f"{mid:#x}: a data byte >= 0x80"
                    self.messages.append((mid, bytes(data_bytes)))
                    self.buffer = self.buffer[length:]
                self.lock.notify_all()

    def send(self, *data):
        self.port.write(bytes(data))
        self.port.flush()

    def take(self, mid, timeout=10.0, what=None):
        """The first waiting message `mid` (those before it are kept), waiting for it."""
        end = time.monotonic() + timeout
        with self.lock:
            while True:
                for i, (m, d) in enumerate(self.messages):
                    if m == mid:
                        del self.messages[i]
                        return d
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no message {mid:#x} ({what or 'asked'}) came")
                self.lock.wait(left)

    def drain(self):
        with self.lock:
            out, self.messages = self.messages, []
            return out

    def close(self):
        self.running = False
        self.thread.join(timeout=5)
        self.port.close()


def bus_frame(cmd, address=0):
    hi, lo = address >> 7 & 0x7f, address & 0x7f
    return (cmd, hi, lo, (cmd + hi + lo) & 0x7f)


def check_bus(mid, d):
    """A bus reply's address and checksum; its data."""
    hi, lo = d[0], d[1]
    assert (hi << 7 | lo) == ADDRESS, f"bus reply {mid:#x} from address {hi << 7 | lo}"
    length = len(d) + 3
    total = mid + (length >> 7) + (length & 0x7f) + sum(d[:-1])
    assert d[-1] == total & 0x7f, f"bus reply {mid:#x}: checksum {d[-1]:#x}"
    return d[2:-1]


def bcd(b):
    assert (b >> 4) < 10 and (b & 15) < 10, f"{b:#x} is not BCD"
    return (b >> 4) * 10 + (b & 15)


def clock_seconds(d):
    """(left seconds, right seconds, status) of the 7 clock bytes."""
    assert len(d) == 7, d.hex()
    right = (d[0] & 15) * 3600 + bcd(d[1]) * 60 + bcd(d[2])
    left = (d[3] & 15) * 3600 + bcd(d[4]) * 60 + bcd(d[5])
    return left, right, d[6]


def device_port():
    """A port that is a device: tactiled answers on it; a device that fails is logged, the
    game plays on. Exits."""
    with tempfile.TemporaryDirectory() as work:
        master, slave = os.openpty()
        device = os.ttyname(slave)  # held open here too: the master reads until it closes
        log = os.path.join(work, "game.jsonl")
        sock = os.path.join(work, "control.sock")
        journal_path = os.path.join(work, "tactiled.out")
        with open(journal_path, "wb") as journal:
            tactiled = subprocess.Popen(
                [tactiled_bin, "--board", "script", "--script", "/dev/null", "--log", log,
                 "--pgn", os.path.join(work, "game.pgn"), "--control", sock, "--speech", "off",
                 "--auto-resume", "off", "--time-control", "600+2", "--dgt-port", device],
                stdout=journal, stderr=subprocess.STDOUT, start_new_session=True)
        failed = True
        try:
            # tactilectl answered: the loop runs, the port is open.
            wait_until("the control socket", lambda: os.path.exists(sock) and subprocess.run(
                [tactilectl_bin, "status", "--socket", sock], capture_output=True,
                timeout=30).returncode == 0)
            os.write(master, bytes([0x40, 0x42]))
            got = b""
            while len(got) < 67:
                got += os.read(master, 256)
            assert got[:3] == bytes([0x86, 0x00, 0x43]), got.hex()
            assert list(got[3:67]) == fields_of(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            os.close(master)
            os.close(slave)

            def closed():
                with open(log) as f:
                    return [r for r in map(json.loads, filter(str.strip, f))
                            if r["type"] == "dgt" and
                            any("the port is closed" in e for e in r.get("errors", []))]
            wait_until("the device's failure logged", closed)
            r = subprocess.run([tactilectl_bin, "status", "--json", "--socket", sock],
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 0 and tactiled.poll() is None, r.stdout + r.stderr
            failed = False
            print("device: answered, its failure logged, the game goes on")
        finally:
            stop(tactiled, 20)
            say_unclean_exit("tactiled", tactiled)
            if failed:
                print_tail(journal_path, 3000)
    sys.exit(1 if failed else 0)


if host == "device":
    device_port()

with tempfile.TemporaryDirectory() as work:
    fifo = os.path.join(work, "board.fifo")
    os.mkfifo(fifo)
    link = os.path.join(work, "dgt")
    log = os.path.join(work, "game.jsonl")
    pgn = os.path.join(work, "game.pgn")
    sock = os.path.join(work, "control.sock")
    journal_path = os.path.join(work, "tactiled.out")
    journal = open(journal_path, "wb")
    tactiled = subprocess.Popen(
        [tactiled_bin, "--board", "script", "--script", fifo, "--log", log, "--pgn", pgn,
         "--control", sock, "--speech", "off", "--auto-resume", "off", "--language", "en",
         "--time-control", "600+2", "--completion", "auto", "--settle-ms", "200",
         "--start-fen", START, "--dgt-port", link],
        stdout=journal, stderr=subprocess.STDOUT, start_new_session=True)
    started = time.monotonic()
    board = open(fifo, "w")
    host_port = None
    failed = True

    def ctl(*args):
        return subprocess.run([tactilectl_bin, *args], capture_output=True, text=True,
                              timeout=30)

    def status():
        r = ctl("status", "--json", "--socket", sock)
        assert r.returncode == 0, f"tactilectl status: {r.stdout}{r.stderr}"
        return json.loads(r.stdout)

    def hand(steps):
        ms = int((time.monotonic() - started) * 1000) + 100
        for kind, square in steps:
            # The promotion piece chosen (a button) before the pawn is put down.
            board.write(f"{ms} A button {square}\n" if kind == "button" else
                        f"{ms} A {kind} {square}\n")
            ms += 40
        board.flush()

    def moves_logged():
        with open(log) as f:
            return [r for r in map(json.loads, filter(str.strip, f))
                    if r["type"] == "moment" and r.get("kind") == "made"]

    try:
        s = wait_until("the control socket", lambda: os.path.exists(sock) and status())
        assert os.path.islink(link), "no link to the pseudo-terminal at --dgt-port"
        h = host_port = Host(link)
        watchdog = threading.Event()

        # --- The host connects.
        if host == "picochess":
            h.send(0x4b, 0x4d, 0x42)
            major, minor = h.take(0x93, what="version")
            dump = h.take(0x86, what="board")
            assert list(dump) == fields_of(START), list(dump)
            # The clock's version, a clock command: acked (ack0 0x10, ack1 the command).
            h.send(0x2b, 0x03, 0x03, 0x09, 0x00)
            ack = None
            while ack is None:
                d = h.take(0x8d, what="clock ack")
                if (d[0] & 15) == 0x0a or (d[3] & 15) == 0x0a:
                    ack = d
            assert ack[1] == 0x10 and ack[2] == 0x09, ack.hex()

            def watch():
                while not watchdog.wait(1.0):
                    h.send(0x45)
            threading.Thread(target=watch, daemon=True).start()
            serial_number = h.take(0x91, what="serial number (watchdog)")
            assert len(serial_number) == 5 and serial_number.isdigit(), serial_number
        elif host == "dgtnix":
            h.send(0x40, 0x42)
            asked = time.monotonic()
            dump = h.take(0x86, timeout=10, what="board")
            # dgtnix gives up after 1.5 s; an idle machine answers in well under that.
            print(f"dump after {(time.monotonic() - asked) * 1000:.0f} ms")
            assert list(dump) == fields_of(START), list(dump)
            h.send(0x45, 0x46, 0x4d, 0x47, 0x49, 0x55, 0x4c, 0x43)
            serial_number = h.take(0x91)
            assert len(serial_number) == 5 and serial_number.isdigit(), serial_number
            assert len(h.take(0x90)) == 2
            assert len(h.take(0x93)) == 2
            assert h.take(0x92).startswith(b"Digital Game Technology")
            assert h.take(0x8f)[-1] == 0x6b
            long_serial = h.take(0xa2)
            assert long_serial.isdigit(), long_serial
            assert len(h.take(0xa0)) == 9
            h.take(0x8d, what="the clock on 0x43")
        else:  # livechess
            h.send(0x40, 0x40, 0x40)
            h.send(0x47)
            assert h.take(0x92).startswith(b"Digital Game Technology")
            h.send(0x46)
            address = h.take(0x90)
            ADDRESS = address[0] << 7 | address[1]
            h.send(0x4a)
            h.send(*bus_frame(0x8b))
            version = check_bus(0x89, h.take(0x89, what="bus version"))
            assert len(version) == 2, version
            h.send(*bus_frame(0x85, ADDRESS))
            check_bus(0x88, h.take(0x88, what="bus start game"))
            h.send(*bus_frame(0x87, ADDRESS))
            check_bus(0x87, h.take(0x87, what="bus ping"))
            h.send(*bus_frame(0x82))
            assert list(check_bus(0x83, h.take(0x83))) == fields_of(START)
        assert not [m for m, _ in h.drain() if m not in (0x8d, 0x91)], "unasked messages"

        r = ctl("start", "--socket", sock)
        assert r.returncode == 0, r.stdout + r.stderr
        followed = fields_of(START)  # the board as the host's updates build it

        def apply_updates():
            for mid, d in h.drain():
                if mid == 0x8e:
                    followed[d[0]] = d[1]

        def host_board():
            """The board as the host has it now: a dump, or updates applied in order."""
            if host == "picochess":
                h.send(0x42)
                return list(h.take(0x86))
            if host == "dgtnix":
                apply_updates()
                return list(followed)
            h.send(*bus_frame(0x83, ADDRESS))
            changes = check_bus(0x85, h.take(0x85))
            assert len(changes) % 2 == 0, changes.hex()
            for i in range(0, len(changes), 2):
                assert changes[i] & 0x40, changes.hex()
                followed[changes[i + 1]] = changes[i] & 0x3f
            return list(followed)

        def check_clock():
            asked = time.monotonic()
            if host != "livechess":
                # A clock message the board sent unasked before the move may still be on
                # its way to the reader: the answer to 0x46 comes after all of them.
                h.send(0x46)
                h.take(0x90, what="the address, as a barrier")
            if host == "dgtnix":
                apply_updates()
            else:
                h.drain()
            if host == "livechess":
                h.send(*bus_frame(0x81, ADDRESS))
                d = check_bus(0x84, h.take(0x84))
            else:
                h.send(0x41)
                d = h.take(0x8d)
            s = status()
            took = time.monotonic() - asked
            white, black, state = clock_seconds(d)  # White on the left
            # Shown after the barrier and before the status was read: as much later as both
            # took, a second either way for the whole seconds shown.
            for side, shown in (("white", white), ("black", black)):
                ms = s[side + "_ms"]
                assert ms / 1000 - 1 <= shown <= ms / 1000 + 1 + took, (side, shown, ms, took)
            if s["running"] != "none":
                assert state & 1, f"status {state:#x}: not running"
                assert state & (0x10 if s["running"] == "white" else 0x08), f"{state:#x}"
            return s

        game = fields_of(START)
        played = 0
        for i, uci in enumerate(GAME):
            if i == 6:
                # An illegal move put back first: d6 to d8 and back (not a move).
                hand([("up", "d6"), ("down", "d8")])
                wait_until("d8 shown", lambda: host_board()[field("d8")] == 1)
                hand([("up", "d8"), ("down", "d6")])
                wait_until("d6 shown again", lambda: host_board() == game)
            steps = hole_steps(game, uci)
            if len(uci) == 5:
                steps.insert(0, ("button", "promote-" + uci[4]))
            hand(steps)
            game = after(game, uci)
            wait_until(f"move {uci} made", lambda: len(moves_logged()) == i + 1)
            # The board the host has is the game's after every move.
            wait_until(f"the host's board after {uci}", lambda: host_board() == game,
                       timeout=10)
            if i % 2 == 1 or i == len(GAME) - 1:
                s = check_clock()
            played += 1
        assert played == len(GAME)
        assert fen_of(game) == "r5k1/3P4/8/8/8/8/8/2KR3R", fen_of(game)
        assert s["fen"].split()[0] == fen_of(game) and s["moves"] == len(GAME), s
        fen = s["fen"]

        # --- 1,000 random bytes change nothing.
        before_log = moves_logged()
        rng = random.Random(36)
        h.send(*[rng.randrange(256) for _ in range(1000)])
        time.sleep(0.6)  # a command left incomplete is dropped after 500 ms
        h.drain()
        h.send(0x40, 0x42)
        dump = h.take(0x86, what="board after the random bytes")
        assert list(dump) == game, list(dump)
        s = status()
        assert s["fen"] == fen and s["moves"] == len(GAME), s
        assert moves_logged() == before_log
        with open(log) as f:
            records = [json.loads(x) for x in f if x.strip()]
        dgt = [r for r in records if r["type"] == "dgt"]
        assert any(r.get("connected") for r in dgt), dgt
        assert any(r.get("errors") for r in dgt), "the random bytes' errors not logged"
        assert tactiled.poll() is None, "tactiled ended"
        failed = False
        print(f"{host}: {len(GAME)} moves followed, {len(dgt)} dgt records:")
        for r in dgt[:4]:
            print(json.dumps(r)[:300])
    finally:
        watchdog_set = globals().get("watchdog")
        if watchdog_set:
            watchdog_set.set()
        if host_port:
            host_port.close()
        board.close()
        stop(tactiled, 20)
        say_unclean_exit("tactiled", tactiled)
        journal.close()
        if failed:
            print_tail(journal_path, 3000)
    # The link is removed when tactiled stops.
    assert not os.path.lexists(link), "the link outlived tactiled"
    sys.exit(1 if failed else 0)
