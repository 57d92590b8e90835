# SPDX-License-Identifier: GPL-3.0-or-later
"""The hall in a venue whose network anyone may use: a real mosquitto with the shipped
configuration made by tactiled-hall-setup (logins, ACL, TLS), two real tables playing
(records of logs made by tactiled --replay, published over TLS with their own logins), and
meanwhile every hostile client we can think of:
  - an anonymous client and a table publishing another table's topics: refused by the
    broker (the hall's own login sees nothing of them);
  - invalid UTF-8, oversized and bad payloads on every topic of a table (a retained one
    among them, so the hall meets it again when it restarts), a table named "constructor";
  - 200 idle event streams and 200 half-sent requests to the page.
The real tables' PGNs stay exactly their logs' own and reach live.pgn; a fresh viewer loads
the page. How long each took is printed (a second or less on a quiet machine), never
asserted: a busy machine must not fail the test. Loopback only."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import log_pgn, make_log, wait_until  # noqa: E402
from venue import VenueBroker, VenueHall, conf_keys, read, with_board  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
tactilectl = os.path.join(build, "daemon", "tactilectl")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
scripts = os.path.join(source, "tests", "data", "scripts")


def table_login(broker, table):
    """broker.as_table(table), its publish.conf first checked to be the table's own, over TLS."""
    conf = conf_keys(os.path.join(broker.dir, "tables", table, "publish.conf"))
    assert conf["table"] == table and conf["broker-port"] == str(broker.tls_port)
    return broker.as_table(table)


class SecureHall(VenueHall):
    def __init__(self, work, broker):
        self.dir = os.path.join(work, "out")
        os.makedirs(self.dir, exist_ok=True)
        conf = os.path.join(broker.dir, "hall", "hall.conf")
        password = os.path.join(broker.dir, "hall", "hall.password")
        self.output = open(os.path.join(work, "hall.out"), "a+")
        self.output.seek(0, 2)
        start = self.output.tell()
        # The hall.conf tactiled-hall-setup wrote, with the password given by path (run by
        # hand, not by the unit: hall_setup_test starts it as the unit does).
        with open(os.path.join(work, "hall.conf"), "w") as f:
            f.write(read(conf) + "password-file = %s\noutput-dir = %s\nhttp-address = 127.0.0.1\n"
                    "http-port = 0\nround = 3\n" % (password, self.dir))
        self.process = subprocess.Popen([hall_binary, "--config", os.path.join(work, "hall.conf")],
                                        stdout=self.output, stderr=subprocess.STDOUT)
        self.wait_for_page(start)


def get(port, path, source_address="127.0.0.1", method="GET"):
    """A fresh viewer: (status, body, seconds taken)."""
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=20,
                                  source_address=(source_address, 0)) as s:
        s.sendall(("%s %s HTTP/1.1\r\nHost: hall\r\n\r\n" % (method, path)).encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), head.decode(), body, time.monotonic() - began


with tempfile.TemporaryDirectory() as work:
    # mosquitto started as root reads its files as the user mosquitto (the set-up gives
    # them to its group): the way there must be open to it.
    os.chmod(work, 0o711)
    path1, log1 = make_log(tactiled, work, "t1", os.path.join(scripts, "molinari-bordais-1979.txt"),
                           "--time-control", "300+2")
    path2, log2 = make_log(tactiled, work, "t2", os.path.join(scripts, "chess960-both-wings.txt"),
                           "--chess960", "607", "--completion", "auto")
    broker = VenueBroker(source, work, "open", ["1", "2", "9", "constructor"])
    hall = SecureHall(work, broker)
    attackers = []
    try:
        t1, t2, t9 = (table_login(broker, t) for t in ("1", "2", "9"))
        anonymous = ["-h", "127.0.0.1", "-p", str(broker.port)]
        anonymous_tls = ["-h", "127.0.0.1", "-p", str(broker.tls_port), "--cafile",
                         os.path.join(broker.dir, "tls", "ca.crt")]
        # -- The broker: anonymous clients are refused outright; a table's login publishing
        # another table's topics is dropped (MQTT 3.1.1 acknowledges and discards).
        for login in (anonymous, anonymous_tls):
            assert broker.publish_lines(login, "tactiled/open/1/record", [log1[0]],
                                        check=False) != 0
        wrong = log2[0]
        broker.publish_lines(t9, "tactiled/open/1/record", [log1[0]])
        broker.publish_lines(t9, "tactiled/open/2/state", ['{"white":"forged"}'], retain=True)
        broker.publish_lines(t9, "tactiled/open/x/record", [wrong])
        broker.publish_lines(t9, "tactiled/other/9/record", [wrong])
        broker.publish_lines(t1, "tactiled/open/../record", [wrong])

        # -- The real tables play, half their records now; hostile payloads on every topic.
        half1, half2 = len(log1) // 2, len(log2) // 2
        broker.publish_lines(t1, "tactiled/open/1/record", log1[:half1])
        broker.publish_lines(t2, "tactiled/open/2/record", log2[:half2])
        bad_utf8 = b'{"seq":0,"t":0,"type":"start","x":"\xc3\x28"}'
        oversized = b'{"seq":1,"pad":"' + b"x" * (64 * 1024 + 100) + b'"}'  # under the broker's limit
        huge = b"x" * (5 * 1024 * 1024)
        constructor = table_login(broker, "constructor")
        for login, table in ((t1, "1"), (t9, "9"), (constructor, "constructor")):
            for kind in ("record", "state", "pgn", "status"):
                topic = "tactiled/open/%s/%s" % (table, kind)
                retain = kind != "record"
                assert broker.publish(login, topic, bad_utf8, retain=retain) == 0
                assert broker.publish(login, topic, oversized) == 0
                broker.publish(login, topic, huge)  # the broker drops the client
                assert broker.publish(login, topic, b'{"white":"\x1b[2J","seq":"no"}') == 0
        broker.publish_lines(constructor, "tactiled/open/constructor/state",
                             ['{"white":"Proto","black":"Type","round":"3","alarms":[]}'],
                             retain=True)
        broker.publish_lines(constructor, "tactiled/open/constructor/status", ["online"],
                             retain=True)
        broker.publish_lines(t1, "tactiled/open/1/state",
                             ['{"round":"3","white_ms":null,"black_ms":null,"alarms":[]}'],
                             retain=True)

        # -- 200 idle event streams and 200 half-sent requests, from two other loopback
        # addresses (a phone or two on the venue's network).
        for i in range(200):
            s = socket.create_connection(("127.0.0.1", hall.port), timeout=5,
                                         source_address=("127.0.0.2", 0))
            s.sendall(b"GET /events HTTP/1.1\r\nHost: hall\r\n\r\n")
            attackers.append(s)
            h = socket.create_connection(("127.0.0.1", hall.port), timeout=5,
                                         source_address=("127.0.0.3", 0))
            h.sendall(b"GET / HTTP/1.1\r\nHost: ha")
            attackers.append(h)
        status, head, page, took = get(hall.port, "/")
        assert status == 200 and b"<!DOCTYPE html>" in page, head
        print("a fresh viewer got the page in %.2f s" % took)
        status, head, body, _ = get(hall.port, "/", method="HEAD")
        assert status == 200 and body == b"" and "Content-Length: %d" % len(page) in head, head

        # -- The rest of the real games: both exact, in live.pgn (the games' own PGNs made
        # first, so that the time printed is the hall's alone).
        own1 = log_pgn(tactilectl, path1).replace('[Round "?"]', '[Round "3"]')
        own2 = log_pgn(tactilectl, path2).replace('[Round "?"]', '[Round "3"]')
        broker.publish_lines(t2, "tactiled/open/2/record", log2[half2:])
        broker.publish_lines(t1, "tactiled/open/1/record", log1[half1:])
        sent = time.monotonic()
        index = wait_until("both real games in round.json", lambda: {
            t["table"]: t for t in hall.round()["tables"]})

        def live_has_both():
            live = hall.file("live.pgn")
            return with_board(own1, 1) in live and with_board(own2, 2) in live
        try:
            wait_until("live.pgn to hold both real games", live_has_both, timeout=30)
        except AssertionError:
            print(hall.file("live.pgn"))
            print(hall.file("round.json"))
            raise
        took = time.monotonic() - sent
        print("the last record reached live.pgn in %.2f s" % took)
        # The tables' own files follow live.pgn.
        wait_until("both tables' own files", lambda: hall.file("table-1.pgn") == with_board(
            own1, 1) and hall.file("table-2.pgn") == with_board(own2, 2), timeout=5)
        # round.json follows live.pgn (the games' files are written between the two).
        index = wait_until("round.json with both games", lambda: (lambda i: i if {
            t["table"]: t["records"] for t in i["tables"]}.get("1") == len(log1) else None)(
            hall.round()))
        tables = {t["table"]: t for t in index["tables"]}
        assert sorted(tables) == ["1", "2", "9", "constructor"], sorted(tables)
        # Table 1's own login sent the JSON that is no record: flagged, and its game still
        # made from its records (as a state or a pgn it is dropped and counted, bad-field).
        assert tables["2"]["flags"] == [], tables["2"]
        assert len(tables["1"]["flags"]) == 1 and tables["1"]["from_records"], tables["1"]
        assert tables["2"]["white"] != "forged", tables["2"]
        assert tables["constructor"]["white"] == "Proto", tables["constructor"]
        dropped = index["dropped"]
        for why in ("not-utf8", "too-large", "bad-field"):
            assert dropped.get(why, 0) >= 3, dropped
        # Each game's file at the path round.json names; nothing else from the disk.
        status, _, body, _ = get(hall.port, "/" + tables["1"]["file"])
        assert status == 200 and body.decode() == with_board(own1, 1)
        for bad in ("/table-..%2Fhall.conf.pgn", "/../hall.conf", "/table-1.pgn/..",
                    "/table-" + "a" * 40 + ".pgn", "/hall.out"):
            assert get(hall.port, bad)[0] == 404, bad
        # live.pgn as an independent reader has it: both games, every move legal.
        extract = subprocess.run(["/usr/games/pgn-extract", "-s", "-Wlalg", "--nocomments",
                               os.path.join(hall.dir, "live.pgn")], capture_output=True,
                              text=True)
        assert extract.returncode == 0 and extract.stderr == "", extract.stderr
        assert extract.stdout.count("[Board ") == 4, extract.stdout
        # The page's JSON lists "constructor" like any table.
        status, _, body, _ = get(hall.port, "/tables.json")
        assert "constructor" in [t["table"] for t in json.loads(body)["tables"]]

        # -- The hall restarts: the retained invalid UTF-8 is met again and dropped again.
        for s in attackers:
            s.close()
        attackers = []
        assert hall.stop() == 0
        live_before = hall.file("live.pgn")
        os.remove(os.path.join(hall.dir, "live.pgn"))
        hall = SecureHall(work, broker)
        wait_until("live.pgn after the restart",
                   lambda: with_board(own1, 1) in hall.file("live.pgn")
                   or hall.round()["dropped"].get("not-utf8", 0) > 0)
        wait_until("the retained bad payloads dropped",
                   lambda: hall.round()["dropped"].get("not-utf8", 0) >= 3)
        # Its records were sent before it was back: table 1 shows its retained state only,
        # and the hall goes on taking what comes.
        broker.publish_lines(t1, "tactiled/open/1/status", ["online"], retain=True)
        wait_until("table 1 online after the restart", lambda: any(
            t["table"] == "1" and t["status"] == "online" for t in hall.round()["tables"]))
        assert live_before
        assert hall.stop() == 0
    finally:
        for s in attackers:
            s.close()
        hall.stop()
        broker.stop()
print("hall hostile test passed")
