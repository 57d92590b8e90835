# SPDX-License-Identifier: GPL-3.0-or-later
"""One table's login against the shipped set-up (docs/hall.md, "The broker"): the broker
made by tactiled-hall-setup from the shipped mosquitto.conf (logins, ACL, TLS), tactiled-hall
started as its unit starts it (a dynamic user, the password as a systemd credential), two
honest tables (real tactiled and tactiled-publish over TLS) playing, and the login of a
third table, as an attacker at that table's Pi has it, trying:
  - the client ids of the hall and of another table, old and new (to close their sessions),
    and reading the hall's topics under the hall's id;
  - a subtopic of its own off the ACL (a retained 60 KB one, again and again);
  - another table's record, state, pgn and status;
  - the resend requests only the hall may send.
Each is refused by the broker (the hall sees none of it and no session is taken over) while
the honest tables' games reach live.pgn whole from their records, within 10 s of the last
move.
Then, the hall stopped, 1,500 records wait for it in the broker (its queue as set up)."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import wait_until  # noqa: E402
from venue import (QUIET_GAME, LiveTable, UnitHall, VenueBroker, as_unit_user,  # noqa: E402
                   log_pgn, read, with_board)

source, build = sys.argv[1], sys.argv[2]
HALL = "open"

with tempfile.TemporaryDirectory() as work:
    # mosquitto (as the user mosquitto) and the hall's user must get through to their files.
    os.chmod(work, 0o711)
    broker = VenueBroker(source, work, HALL, ["1", "2", "3"])
    acl = read(os.path.join(broker.dir, "acl"))
    assert "tactiled/%s/3/#" % HALL not in acl, acl
    assert "use_username_as_clientid true" in read(os.path.join(broker.dir, "mosquitto.conf"))

    # -- The set-up as installed: the password file the set-up makes is root's alone, so
    # the hall's dynamic user cannot read it by path (the unit's old failure)...
    password = os.path.join(broker.dir, "hall", "hall.password")
    assert os.stat(password).st_mode & 0o077 == 0
    denied = subprocess.run(as_unit_user([
        os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall"), "--config",
        "/dev/null", "--hall", HALL, "--username", "hall." + HALL, "--password-file", password]),
        capture_output=True, text=True)
    assert denied.returncode == 2 and "password-file: cannot read" in denied.stderr, denied
    # ... and reads it as the unit hands it over: the broker takes its login.
    hall = UnitHall(source, build, work, broker)
    tables, attacker = [], broker.as_table("3")
    try:
        wait_until("the hall on the broker", lambda: hall.file("round.json"))
        assert broker.publish(attacker, "tactiled/%s/3/status" % HALL, "online", retain=True) == 0
        wait_until("the hall to see table 3 (its login connected and subscribed)",
                   lambda: hall.tables().get("3", {}).get("status") == "online")

        tables = [LiveTable(build, work, broker, name) for name in ("1", "2")]
        # Table 3's login, while the honest tables play. The ids of the hall and of table 1,
        # as they are now (the logins) and as they were: each connection gets table 3's own
        # id, so the hall and table 1 keep their sessions. Under the hall's id it also asks
        # for the hall's topics with a persistent session: nothing of another table comes.
        ids = ["hall." + HALL, "tactiled-hall-" + HALL, "table.%s.1" % HALL,
               "tactiled-publish-%s-1" % HALL]
        stolen = []
        for n, uci in enumerate(QUIET_GAME):
            for t in tables:
                t.move(uci)
            if n < len(ids):
                stolen.append(subprocess.Popen(
                    ["mosquitto_sub", *attacker, "-i", ids[n], "-c", "-q", "1", "-t",
                     "tactiled/%s/#" % HALL, "-v"], stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT))
            elif n == len(ids):
                # Off the ACL: a subtopic of its own (retained, 60 KB, many of them), another
                # table's every topic, and resend requests (the hall's alone).
                big = b"x" * 60000
                for i in range(50):
                    broker.publish(attacker, "tactiled/%s/3/junk/%d" % (HALL, i), big, retain=True)
                for topic in ("record", "record/" + "f" * 32, "state", "pgn", "status"):
                    broker.publish(attacker, "tactiled/%s/1/%s" % (HALL, topic),
                                   '{"seq":0,"type":"start","white":"forged"}', retain=True)
                for table in ("1", "3"):
                    broker.publish(attacker, "tactiled/%s/%s/resend" % (HALL, table),
                                   '{"game_id":"%s","from":0,"to":5}' % ("f" * 32))
                broker.publish(attacker, "tactiled/%s/3/state/x" % HALL, "{}", retain=True)
                broker.publish(attacker, "tactiled/other/3/record", "{}")
        sent = time.monotonic()

        def whole(t, board):
            # The game's own PGN, but for the clocks as they stand now (a running game's).
            live = "".join(line for line in hall.file("live.pgn").splitlines(True)
                           if not line.startswith(("[WhiteClock ", "[BlackClock ",
                                                   "[ReferenceTime ")))
            return with_board(log_pgn(build, t.log), board) in live
        try:
            wait_until("both honest games whole in live.pgn",
                       lambda: all(whole(t, b) for t, b in zip(tables, ("1", "2"))), timeout=10)
        except AssertionError:
            print(hall.file("live.pgn"), hall.file("round.json"), hall.text(), sep="\n")
            raise
        took = time.monotonic() - sent
        assert took < 10, took
        index = hall.round()
        by_table = {t["table"]: t for t in index["tables"]}
        assert sorted(by_table) == ["1", "2", "3"], sorted(by_table)
        for name in ("1", "2"):
            t = by_table[name]
            assert t["from_records"] and not t["gap"] and t["flags"] == [], t
            assert t["status"] == "online" and t.get("white") != "forged", t
        # Nothing refused reached the hall: no drop of any kind.
        assert index.get("dropped", {}) == {}, index["dropped"]

        # The connections under stolen ids were table 3's own: each new one closed the one
        # before it (same login, same id), none closed the hall's or table 1's session.
        for p in stolen:
            if p.poll() is None:
                p.terminate()
        got = b"".join(p.communicate(timeout=10)[0] for p in stolen)
        assert b"tactiled/%s/1/" % HALL.encode() not in got, got[:400]
        assert b"tactiled/%s/2/" % HALL.encode() not in got, got[:400]
        broker.log.flush()
        log = read(broker.log_path)
        for own in ("hall." + HALL, "table.%s.1" % HALL, "table.%s.2" % HALL):
            assert "Client %s already connected" % own not in log, own
        assert log.count("Client table.%s.3 already connected" % HALL) >= len(ids) - 1, log
        for t in tables:
            assert "refused" not in read(os.path.join(t.dir, "publish.out"))

        # The hall away (its session kept by the broker) while a table sends 1,500 records:
        # all wait for it, past mosquitto's default queue of 1,000 (the set-up's: 4,000 a
        # table). Read back under the hall's login and session, as the hall would.
        assert hall.stop() == 0
        records = ['{"seq":%d}' % n for n in range(1500)]
        flood = subprocess.run(["mosquitto_pub", *attacker, "-q", "1", "-t",
                                "tactiled/%s/3/record" % HALL, "-l"],
                               input="\n".join(records) + "\n", text=True, capture_output=True)
        assert flood.returncode == 0, flood.stderr
        hall_login = ["-h", "127.0.0.1", "-p", str(broker.port), "-u", "hall." + HALL, "-P",
                      read(password).strip()]
        retained_count = 7  # tables 1 and 2: state, pgn, status; table 3: status
        queued = subprocess.run(
            ["mosquitto_sub", *hall_login, "-c", "-i", "hall." + HALL, "-q", "1", "-t",
             "tactiled/%s/#" % HALL,
             "-F", "%t %p", "-C", str(len(records) + retained_count), "-W", "60"],
            capture_output=True, text=True)
        got = [line.split(" ", 1)[1] for line in queued.stdout.splitlines()
               if line.startswith("tactiled/%s/3/record " % HALL)]
        assert got == records, "%d of %d queued records came back: %s %s" % (
            len(got), len(records), queued.stdout[:300], queued.stderr[:300])

        # The 50 retained 60 KB topics off the ACL are not in the broker: a fresh reader
        # with the hall's login gets the honest tables' and table 3's retained topics only.
        retained = subprocess.run(
            ["mosquitto_sub", *hall_login, "-t", "tactiled/%s/#" % HALL, "-F", "%t",
             "--retained-only", "-W", "2"], capture_output=True, text=True)
        topics = sorted(set(retained.stdout.split()))
        assert topics == sorted("tactiled/%s/%s/%s" % (HALL, t, k) for t in ("1", "2")
                                for k in ("pgn", "state", "status")) + [
            "tactiled/%s/3/status" % HALL], topics
    finally:
        for t in tables:
            t.stop()
        hall.stop()
        broker.stop()
print("hall login test passed")
