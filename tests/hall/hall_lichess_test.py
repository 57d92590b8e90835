# SPDX-License-Identifier: GPL-3.0-or-later
"""The hall pushes the round to a lichess broadcast by itself (issue 37), against a fake of
lichess's push endpoint that holds it to lichess's contract (tests/hall/fake_lichess.py: the
published API types, lila's rules, chessops replaying every move): a contract test.

Two real tables (tactiled on a script board and its tactiled-publish, over TLS with their
own logins, as tactiled-hall-setup sets a venue up) play a game each; tactiled-hall runs as
its unit runs it, the lichess token handed over as the credential
tactiled-hall.lichess-token. Then:
  - every push splits into both games, each whole at the end (the moves of the table's own
    log), every move legal with its [%clk], names and tags stable, never two requests at
    once, none less than a second after the last one's start;
  - lichess refusing one game in the middle of the round: its words reach round.json, the
    page's JSON and the journal (once), and go when lichess takes the game again;
  - lichess refusing the token: a hall alarm in lichess's words on the page, gone when it
    takes the token again;
  - a 429: no request for the rest of the test while the tables play on (the full minute is
    PushSchedule's unit test: LichessSchedule.NothingForAMinuteAfterA429), said in the
    journal, no alarm;
  - the round's folder (round-5/games.pgn, game-B.pgn), live.pgn as a URL source
    (charset=utf-8, an ETag answered with 304, no redirect), the token nowhere in what the
    hall writes or says.
Loopback only; nothing waits on the machine's speed."""
import http.client
import json
import os
import re
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import wait_until  # noqa: E402
from fake_lichess import FakeLichess  # noqa: E402
from venue import QUIET_GAME, LiveTable, UnitHall, VenueBroker, log_pgn  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
HALL, ROUND_ID, TOKEN = "open", "Qw3rTy12", "lip_TestToken0123456789"


def moves_of(pgn):
    """The SAN moves of a game's text, in order (comments and numbers left out)."""
    text = re.sub(r"\{[^}]*\}", " ", pgn.split("\n\n", 1)[1])
    return [w for w in text.split() if not re.match(r"^(\d+\.+|\*|1-0|0-1|1/2-1/2)$", w)]


def get(url, headers=None):
    """One GET as a poller makes it, no redirect followed: (status, headers, body)."""
    address = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        connection.request("GET", address.path, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        connection.close()


with tempfile.TemporaryDirectory() as work:
    os.chmod(work, 0o711)  # mosquitto's and the hall's users get through to their files
    fake = FakeLichess([ROUND_ID], TOKEN)
    broker = VenueBroker(source, work, HALL, ["1", "2"])
    hall, tables = None, []
    try:
        folder = os.path.join(work, "hall", "state", "folder")
        hall = UnitHall(source, build, work, broker,
                        extra="round = 5\nlichess-push = %s\nlichess-url = %s\n"
                        "round-folder = %s\n" % (ROUND_ID, fake.url, folder),
                        secrets={"tactiled-hall.lichess-token": TOKEN + "\n"})
        tables = [LiveTable(build, work, broker, name) for name in ("1", "2")]
        began = time.monotonic()

        def lichess(table, source="round"):
            if source == "round":
                entries = hall.round()["tables"]
            else:
                entries = json.loads(get(hall.url + "tables.json")[2])["tables"]
            return {t["table"]: t.get("lichess") for t in entries}.get(table)

        half = len(QUIET_GAME) // 2
        for n, uci in enumerate(QUIET_GAME):
            if n == half:
                # lichess refuses board 2's game in the middle of the round.
                fake.game_errors["2"] = "Illegal move: 11. Ke9 (fake)"
            for t in tables:
                t.move(uci)
            if n == half:
                wait_until("lichess's error on the page",
                           lambda: (lichess("2") or {}).get("error") ==
                           "Illegal move: 11. Ke9 (fake)" and
                           (lichess("2", "page") or {}).get("error") ==
                           "Illegal move: 11. Ke9 (fake)" and
                           "moves" in (lichess("1") or {}))
                del fake.game_errors["2"]
            if n == half + 2:
                # lichess refuses the token: a hall alarm in its words, gone once it takes
                # the token again (after the hall's back-off).
                fake.refuse_token = True
            if n == half + 3:
                words = "lichess round %s: the token is refused (401): No such token" % ROUND_ID
                wait_until("the alarm on the page", lambda: hall.round()["lichess_alarm"] ==
                           words and json.loads(get(hall.url + "tables.json")[2])
                           .get("lichess_alarm") == words)
                fake.refuse_token = False
                wait_until("the alarm gone", lambda: hall.round()["lichess_alarm"] == "")
        # Both games whole in the last push lichess took, as each table's log has them.
        own = [moves_of(log_pgn(build, t.log)) for t in tables]
        assert all(len(m) == len(QUIET_GAME) for m in own), own

        def whole():
            answered = fake.answered()
            if not answered:
                return None
            last = answered[-1]
            boards = {g["board"]: g for g in last["games"]}
            if sorted(boards) != ["1", "2"]:
                return None
            if all(moves_of(boards[b]["text"]) == own[i] for i, b in enumerate(("1", "2"))):
                return last
            return None
        last = wait_until("both games whole at the fake lichess", whole)
        wait_until("lichess's moves in round.json",
                   lambda: all(lichess(t) == {"moves": len(QUIET_GAME)} for t in ("1", "2")))
        played = time.monotonic() - began
        for g in last["games"]:
            tags = g["tags"]
            assert tags["Round"] == "5." + g["board"] and tags["Board"] == g["board"], tags
            assert tags["White"] == "Table %s White" % g["board"], tags  # no names given
            assert tags["Event"] == "tactiled hall open", tags
            assert "TimeControl" in tags and "WhiteClock" not in tags, tags
            assert g["moves"] == g["clocks"] == len(QUIET_GAME), g
        pushes = len(fake.requests)

        # The round's folder, as the Broadcaster app and DGT LiveChess lay it out.
        def folder_file(name):
            try:
                with open(os.path.join(folder, "round-5", name)) as f:
                    return f.read()
            except FileNotFoundError:
                return ""
        wait_until("the round's folder", lambda: all(
            moves_of(folder_file("game-%s.pgn" % b)) == own[i] for i, b in enumerate("12")))
        assert folder_file("games.pgn") == folder_file("game-1.pgn") + "\n" + \
            folder_file("game-2.pgn")

        # live.pgn as a URL source: UTF-8 said, an ETag, 304 when unchanged, no redirect.
        def conditional():
            status, headers, body = get(hall.url + "live.pgn")
            assert status == 200 and "charset=utf-8" in headers["Content-Type"], headers
            etag = headers["ETag"]
            again, headers, body_again = get(hall.url + "live.pgn", {"If-None-Match": etag})
            if again == 200:  # the clocks moved on meanwhile: another text, another tag
                assert headers["ETag"] != etag and body_again != body, headers
                return False
            assert again == 304 and body_again == b"" and headers["ETag"] == etag, headers
            return True
        wait_until("live.pgn answered 304", conditional)

        # A 429: nothing more for a minute, while the tables play on.
        fake.answer_429 = True
        tables[0].move("g2g3")
        wait_until("lichess's 429", lambda: any(r["status"] == 429 for r in fake.requests))
        tables[1].move("g2g3")
        asked = time.monotonic()
        quiet = len(fake.requests)
        wait_until("the hall to say so", lambda: "429" in hall.text())
        # Changes wait meanwhile (the hall's page has them), and no request comes.
        wait_until("the moves on the page",
                   lambda: all(t["moves"] == len(QUIET_GAME) + 1 for t in hall.round()["tables"]))
        time.sleep(max(0.0, asked + 5 - time.monotonic()))
        assert len(fake.requests) == quiet, fake.requests[quiet:]
        assert hall.round()["lichess_alarm"] == "", hall.round()["lichess_alarm"]
    finally:
        for t in tables:
            t.stop()
        status = hall.stop() if hall else None
        broker.stop()
        fake.stop()

    journal = hall.text()
    print("pushes: %d (%d answered) in %.1f s of play; the page's error and moves as above"
          % (pushes, len(fake.answered()), played))
    assert status == 0, journal
    assert not fake.violations, fake.violations
    assert fake.most_in_flight == 1, fake.most_in_flight
    # The journal said lichess's refusal once, and that it took the game again.
    refused = "table 2's game refused: Illegal move: 11. Ke9 (fake)"
    assert journal.count(refused) == 1, journal
    assert journal.rfind("table 2's game accepted") > journal.find(refused), journal
    assert "too many requests (429)" in journal, journal
    assert journal.count("lichess alarm: ") == 1, journal
    # The token is nowhere the hall writes or says.
    for root, dirs, files in os.walk(os.path.join(work, "hall", "state")):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                assert TOKEN.encode() not in f.read(), name
    assert TOKEN not in journal
