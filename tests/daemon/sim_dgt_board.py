# SPDX-License-Identifier: GPL-3.0-or-later
"""A simulated DGT e-board on a pseudo-terminal, written from DGT's board protocol as
issue 36 describes it (not from any other program's code): what tactiled's board = dgt
reads (docs/dgt.md, "A DGT board as a board").

The board answers 0x42 with its full dump (0x86, 64 piece codes by field, field =
(8 - rank) * 8 + file), enters update mode on 0x44 (each change then sent as 0x8e 0x00 0x05
field code, a lifted piece as code 0), leaves it on 0x40, answers 0x45 with a serial number,
and, with a clock attached, sends the clock's 0x8d messages unasked every half second (a
board reader must ignore them). The link is a symlink at `path` to the pty's slave;
unplug() closes the pty and removes the link, plug() makes a new one (as a USB board
unplugged and plugged in again, its device gone and back)."""
import os
import threading
import time
import tty

CODES = {"P": 1, "R": 2, "N": 3, "B": 4, "K": 5, "Q": 6,
         "p": 7, "r": 8, "n": 9, "b": 10, "k": 11, "q": 12}


def field(square):
    """(8 - rank) * 8 + file."""
    return (8 - int(square[1])) * 8 + "abcdefgh".index(square[0])


def fields_of(fen):
    """The 64 codes of a FEN's position, by field."""
    out = [0] * 64
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out[i * 8 + f] = CODES[c]
                f += 1
    return out


def message(mid, data):
    """A message: the id (bit 7 set), the length in two 7-bit bytes counting the header."""
    n = len(data) + 3
    return bytes([mid, (n >> 7) & 0x7F, n & 0x7F, *data])


def hand_steps(board, uci, mover_first=False):
    """The field updates of a hand playing `uci` on `board` (codes by field): a captured
    piece lifted first (or after the mover, `mover_first`), the mover lifted and put down
    (the promoted piece for a promotion), castling's rook after the king, en passant's pawn
    taken last."""
    frm, to = field(uci[0:2]), field(uci[2:4])
    mover = board[frm]
    steps = []
    if mover_first:
        steps.append((frm, 0))
    if board[to]:
        steps.append((to, 0))
    if not mover_first:
        steps.append((frm, 0))
    placed = mover
    if len(uci) == 5:
        placed = CODES[uci[4].upper() if mover == 1 else uci[4].lower()]
    steps.append((to, placed))
    if mover in (5, 11) and abs(frm - to) == 2:
        rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
        steps += [(rook_from, 0), (rook_to, board[rook_from])]
    if mover in (1, 7) and frm % 8 != to % 8 and not board[to]:
        steps.append((frm - frm % 8 + to % 8, 0))
    return steps


class SimDgtBoard:
    def __init__(self, path, fen, clock=True):
        self.path = path
        self.board = fields_of(fen)
        self.clock = clock
        self.lock = threading.Lock()
        self.updates = False
        self.commands = []  # every command byte the reader sent, in order
        self.dumps = 0      # dumps sent
        self.master = self.slave = None
        self.plug()

    def plug(self):
        master, slave = os.openpty()
        tty.setraw(master)
        with self.lock:
            self.master, self.slave = master, slave
            self.updates = False
        os.symlink(os.ttyname(slave), self.path)
        self.running = True
        threading.Thread(target=self._serve, args=(master,), daemon=True).start()

    def unplug(self):
        with self.lock:
            master, slave = self.master, self.slave
            self.master = self.slave = None
            self.updates = False
        os.unlink(self.path)
        os.close(master)
        os.close(slave)

    def _send(self, data):
        if self.master is not None:
            try:
                os.write(self.master, data)
            except OSError:
                pass

    def _serve(self, master):
        last_clock = time.monotonic()
        while True:
            with self.lock:
                if self.master != master:
                    return
            try:
                import select
                ready, _, _ = select.select([master], [], [], 0.1)
                data = os.read(master, 256) if ready else b""
            except OSError:
                # No reader has the slave open yet (EIO) or the pty was closed.
                time.sleep(0.05)
                data = b""
            with self.lock:
                if self.master != master:
                    return
                for b in data:
                    self.commands.append(b)
                    if b == 0x40:
                        self.updates = False
                    elif b == 0x42:
                        self.dumps += 1
                        self._send(message(0x86, self.board))
                    elif b == 0x44:
                        self.updates = True
                    elif b == 0x45:
                        self._send(message(0x91, b"00036"))
                if self.clock and time.monotonic() - last_clock > 0.5:
                    last_clock = time.monotonic()
                    # A clock attached: 1:00:00 and 0:59:59, the right player to move.
                    self._send(message(0x8D, [0x01, 0x00, 0x00, 0x00, 0x59, 0x59, 0x09]))

    def set(self, f, code):
        """One field's change, sent as an update in update mode."""
        with self.lock:
            self.board[f] = code
            if self.updates:
                self._send(message(0x8E, [f, code]))

    def play(self, uci, pause=0.05, mover_first=False):
        """A hand plays `uci`: its field updates one after another."""
        for f, code in hand_steps(self.board, uci, mover_first):
            self.set(f, code)
            time.sleep(pause)
