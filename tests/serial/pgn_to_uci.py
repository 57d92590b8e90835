#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turns one game of a standard-chess PGN file into UCI moves on one line.

Test-data helper for tests/serial: the legal moves of each position come from Stockfish
(`go perft 1`), the SAN of the record picks one of them. Usage:
  pgn_to_uci.py GAME.pgn [INDEX] >> games.uci   (INDEX counts from 0)
"""
import re
import shutil
import subprocess
import sys

FILES = "abcdefgh"


def san_tokens(pgn_text, index):
    games = re.split(r"\n(?=\[Event )", pgn_text.strip())
    game = games[index]
    body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    toks = []
    for t in body.split():
        t = re.sub(r"^\d+\.+", "", t)
        if not t or t in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        toks.append(t)
    return toks


def start_board():
    b = {}
    back = "RNBQKBNR"
    for i, f in enumerate(FILES):
        b[f + "1"] = back[i]
        b[f + "2"] = "P"
        b[f + "7"] = "p"
        b[f + "8"] = back[i].lower()
    return b


def apply(board, uci):
    frm, to, promo = uci[:2], uci[2:4], uci[4:]
    piece = board.pop(frm)
    if piece in "Pp" and frm[0] != to[0] and to not in board:
        board.pop(to[0] + frm[1], None)  # en passant
    if piece in "Kk" and abs(FILES.index(frm[0]) - FILES.index(to[0])) == 2:
        rank = frm[1]
        if to[0] == "g":
            board["f" + rank] = board.pop("h" + rank)
        else:
            board["d" + rank] = board.pop("a" + rank)
    board[to] = (promo.upper() if piece.isupper() else promo) if promo else piece


def main():
    text = open(sys.argv[1]).read()
    index = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    sf = subprocess.Popen(["stockfish" if shutil.which("stockfish") else "/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    board, moves = start_board(), []
    for san in san_tokens(text, index):
        sf.stdin.write("position startpos moves " + " ".join(moves) + "\ngo perft 1\n")
        sf.stdin.flush()
        legal = []
        while True:
            line = sf.stdout.readline()
            if line.startswith("Nodes searched"):
                break
            m = re.match(r"^([a-h][1-8][a-h][1-8][qrbn]?): 1$", line.strip())
            if m:
                legal.append(m.group(1))
        s = san.rstrip("+#!?")
        if s in ("O-O", "O-O-O"):
            pick = [u for u in legal if board[u[:2]] in "Kk" and u[2] == ("g" if s == "O-O" else "c")
                    and u[0] == "e"]
        else:
            m = re.match(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=([NBRQ]))?$", s)
            kind, ffile, frank, to, promo = m.groups()
            kind = kind or "P"
            pick = [u for u in legal if board[u[:2]].upper() == kind and u[2:4] == to
                    and (not ffile or u[0] == ffile) and (not frank or u[1] == frank)
                    and u[4:] == (promo or "").lower()]
        if len(pick) != 1:
            sys.exit("cannot resolve %s: %s" % (san, pick))
        moves.append(pick[0])
        apply(board, pick[0])
    sf.stdin.write("quit\n")
    sf.stdin.flush()
    print(" ".join(moves))


if __name__ == "__main__":
    main()
