# SPDX-License-Identifier: GPL-3.0-or-later
"""A DGT e-board as a board (board-b = dgt, issue 36, docs/dgt.md), end to end: the real
tactiled plays a two-boards game whose board A is the blind player's tactile board (a script
on a FIFO) and whose board B is the sighted opponent's DGT board, simulated by this program
on a pseudo-terminal (sim_dgt_board.py: the protocol's own codec).

- game: a whole game to its end (mate). Every move of the sighted player is taken from the
  DGT board's field updates and logged as made on board B; the tactile board mirrors it
  (board A's reproduction, the `mirrored` record); the blind player's moves, reproduced on
  the DGT board, are mirrored on B. A promotion is read with its piece from the board (a
  knight, not the queen a tactile board defaults to). The clock the DGT board sends is
  ignored.
- replug: the DGT board is unplugged (its pty closed, its device gone) in the middle of the
  game and plugged in again: tactiled logs it lost, opens it again, asks for a full dump and
  logs it found; a move made while it was away is read from that dump, and the game goes on.
  Before that, a capture-promotion whose pawn is lifted before the piece it takes is read
  with the knight put down (bxa1=N).
- sighted: seating = sighted with board-b = dgt: the blind player (Black) on the tactile
  board A, the sighted player (White) on the DGT board B, his clock button on board A. A
  whole game to its end (mate) with captures on both sides and his castling: every move of
  his is logged as made on board B, taken from the DGT board, and mirrored on board A; his
  press comes after his move is read or before it (then the move is recorded at the press);
  the blind player's moves are made on A and reproduced on the DGT board.

Usage: dgt_board_test.py SOURCE_DIR BUILD_DIR game|replug|sighted"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
sys.path.insert(0, os.path.dirname(__file__))
from daemon_process import print_tail, say_unclean_exit, stop  # noqa: E402
from sim_dgt_board import SimDgtBoard, hand_steps  # noqa: E402
from waiting import wait_until  # noqa: E402

source, build, mode = sys.argv[1], sys.argv[2], sys.argv[3]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
tactilectl_bin = os.path.join(build, "daemon", "tactilectl")

# (start, [uci, ...]): the moves in turn, White's are the blind player's (his hands on the script),
# B's the sighted player's on the DGT board. Each move is reproduced on the other board.
GAMES = {
    # A whole game to its end: the Blackburne Shilling trap, Black mating on the DGT board
    # (captures on both sides, a check): 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5
    # 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1.
    "game": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
             "e2e4 e7e5 g1f3 b8c6 f1c4 c6d4 f3e5 d8g5 e5f7 g5g2 h1f1 g2e4 c4e2 d4f3".split()),
    # A promotion to a knight read from the piece put down, then the board unplugged, a
    # move made on it meanwhile (h8g8), plugged in again, the game going on.
    "replug": ("7k/7p/8/8/8/8/1p6/N3K3 w - - 0 1", "e1d2 b2a1n d2e3 h8g8 e3f4".split()),
    # The sighted seating (White the sighted player's, on the DGT board): the fishing pole,
    # his castling, captures on both sides, the blind player mating: 1. e4 e5 2. Nf3 Nc6
    # 3. Bb5 Nf6 4. O-O Ng4 5. h3 h5 6. hxg4 hxg4 7. Nxe5 Qh4 8. Nxc6 Qh1# 0-1.
    "sighted": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                ("e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 f6g4 h2h3 h7h5 h3g4 h5g4 f3e5 d8h4 e5c6 "
                 "h4h1").split()),
}
START, MOVES = GAMES[mode]
SIGHTED = mode == "sighted"  # board B the sighted player's, White; the blind player Black
WHILE_UNPLUGGED = 3  # replug: the index of the move made on the board while it is away


def read_log(log):
    with open(log) as f:
        return [json.loads(x) for x in f if x.strip()]


def count(log, kind, board=None, **fields):
    return sum(1 for r in read_log(log) if r["type"] == kind
               and (board is None or r.get("board") == board)
               and all(r.get(k) == v for k, v in fields.items()))


def made(log):
    return [r for r in read_log(log) if r["type"] == "moment" and r.get("kind") == "made"]


with tempfile.TemporaryDirectory() as work:
    fifo = os.path.join(work, "a.fifo")
    os.mkfifo(fifo)
    link = os.path.join(work, "dgt-board")
    log = os.path.join(work, "game.jsonl")
    pgn = os.path.join(work, "game.pgn")
    sock = os.path.join(work, "control.sock")
    journal_path = os.path.join(work, "tactiled.out")
    journal = open(journal_path, "wb")
    dgt = SimDgtBoard(link, START)
    seating = (["--seating", "sighted", "--player", "black", "--board", "script"] if SIGHTED
               else ["--seating", "two-boards", "--board-a", "script"])
    tactiled = subprocess.Popen(
        [tactiled_bin, *seating, "--script", fifo, "--board-b", "dgt", "--dgt-device-b", link,
         "--log", log, "--pgn", pgn, "--control", sock, "--speech", "off", "--auto-resume", "off", "--language", "en",
         "--time-control", "600+2", "--completion", "auto", "--settle-ms", "200",
         "--start-fen", START],
        stdout=journal, stderr=subprocess.STDOUT, start_new_session=True)
    board_a = open(fifo, "w")
    failed = True

    def ctl(*args):
        return subprocess.run([tactilectl_bin, *args], capture_output=True, text=True,
                              timeout=30)

    def hand_a(steps):
        """The blind player's hands on the tactile board: lines of the event script."""
        for kind, square in steps:
            board_a.write(f"0 A {kind} {square}\n")
        board_a.flush()

    def press_clock(presses):
        """The sighted player's press on his clock, board A's clock button (White's): logged,
        and the blind player's clock runs."""
        board_a.write("0 A button clock\n")
        board_a.flush()
        wait_until("his press", lambda: count(log, "button", button="clock") == presses)
        wait_until("his press ran the blind player's clock", lambda: [
            r for r in read_log(log) if r["type"] == "clock"][-1]["running"] == "black")

    def a_steps(uci):
        """Board A's lifts and puts for `uci`, worked out from the DGT simulation's own
        board (the same position): its field updates as holes."""
        steps = []
        for f, code in hand_steps(list(dgt.board), uci):
            sq = "abcdefgh"[f % 8] + str(8 - f // 8)
            steps.append(("down" if code else "up", sq))
        return steps

    try:
        wait_until("board B found", lambda: os.path.exists(log) and
                   count(log, "board", "B", status="found") == 1)
        # The board sees the reader's requests on its own thread: waited for, not read once.
        wait_until("a dump and update mode asked", lambda: dgt.dumps >= 1 and dgt.updates)
        r = ctl("start", "--socket", sock)
        assert r.returncode == 0, r.stdout + r.stderr
        mirrored = {"A": 0, "B": 0}
        presses = 0
        at_press = {}  # ply: White's time left at his press, for a move read after it
        for i, uci in enumerate(MOVES):
            mover = "A" if (i % 2 == 0) != SIGHTED else "B"
            other = "B" if mover == "A" else "A"
            steps_a = a_steps(uci)  # from the position before the move
            # The sighted player's press on his clock (board A's clock button): before his
            # move is read from his board every other move, else after it.
            press_first = SIGHTED and mover == "B" and (i // 2) % 2 == 1
            if press_first:
                presses += 1
                press_clock(presses)
            if mover == "A":
                hand_a(steps_a)
            elif mode == "replug" and i == WHILE_UNPLUGGED:
                dgt.unplug()
                wait_until("board B lost", lambda: count(log, "board", "B", status="lost") == 1)
                dgt.play(uci)  # on the board while it is away: no updates sent
                dumps = dgt.dumps
                dgt.plug()
                wait_until("board B found again",
                           lambda: count(log, "board", "B", status="found") == 2)
                assert dgt.dumps > dumps, "no dump asked after the reconnect"
            else:
                dgt.play(uci, mover_first=len(uci) == 5)  # a pawn lifted before what it takes
            wait_until(f"move {uci} made", lambda: len(made(log)) == i + 1)
            m = made(log)[-1]
            assert m.get("board") == mover and m.get("move") == uci, (uci, m)
            if press_first:  # his clock stopped at his press, before his move was read
                assert m["t"] >= [r for r in read_log(log) if r["type"] == "button"][-1]["t"]
                # His move's [%clk] is his time at the press (the clock record it made).
                at_press[i] = [r for r in read_log(log) if r["type"] == "clock"][-1]["white_ms"]
            if SIGHTED and mover == "B" and not press_first and i + 1 < len(MOVES):
                presses += 1
                press_clock(presses)
            # The move reproduced on the other board, as its player would.
            if other == "A":
                hand_a(steps_a)
            else:
                dgt.play(uci)
            mirrored[other] += 1
            wait_until(f"{uci} mirrored on {other}",
                       lambda: count(log, "mirrored", other) == mirrored[other])
        if mode == "sighted":
            wait_until("the game's end", lambda: count(log, "game-over") == 1)
            over = [r for r in read_log(log) if r["type"] == "game-over"][0]
            assert over.get("result") == "0-1", over
            sans = [r["san"] for r in made(log)]
            assert sans[6] == "O-O" and sans[-2:] == ["Nxc6", "Qh1#"], sans
            # Every move of his made on board B, each mirrored on the tactile board.
            assert [r["board"] for r in made(log)] == ["B", "A"] * (len(MOVES) // 2)
            assert count(log, "mirrored", "A") == len(MOVES) // 2
            assert count(log, "mirrored", "B") == len(MOVES) // 2
            wait_until("the PGN's last move", lambda: "Qh1#" in open(pgn).read())
            with open(pgn) as f:
                clks = re.findall(r"\[%clk (\d+):(\d\d):(\d\d)\]", f.read())
            assert len(clks) == len(MOVES), clks
            for ply, ms in at_press.items():
                h, mi, se = (int(x) for x in clks[ply])
                assert (h * 3600 + mi * 60 + se) * 1000 == ms // 1000 * 1000, (ply, clks[ply], ms)
        elif mode == "game":
            wait_until("the game's end", lambda: count(log, "game-over") == 1)
            over = [r for r in read_log(log) if r["type"] == "game-over"][0]
            assert over.get("result") == "0-1", over
            sans = [r["san"] for r in made(log)]
            assert sans[-4:] == ["Rf1", "Qxe4+", "Be2", "Nf3#"], sans
        else:
            sans = [r["san"] for r in made(log)]
            assert sans[1] == "bxa1=N", sans  # the knight put down, not the default queen
            lost = [r for r in read_log(log) if r["type"] == "board" and r["status"] == "lost"]
            assert lost[0]["message"].startswith("DGT board lost"), lost
        # The DGT board's clock messages never became anything but ignored bytes: no warning
        # of its messages (a try to open the device while it is unplugged names the device,
        # and may come before the replug, however soon, on a busy machine).
        warnings = [r for r in read_log(log) if r["type"] == "board" and r.get("board") == "B"
                    and r.get("status") == "warning" and link not in r.get("message", "")]
        assert not warnings, warnings
        assert tactiled.poll() is None, "tactiled ended"
        failed = False
        print(f"{mode}: {len(MOVES)} moves, {len(made(log))} made, dumps {dgt.dumps}")
    finally:
        stop(tactiled, 20)
        say_unclean_exit("tactiled", tactiled)
        if failed:
            print_tail(journal_path, 4000)
sys.exit(1 if failed else 0)
