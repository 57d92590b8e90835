# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 34's attacks of one table's login on the hall and the broker, through the shipped
set-up (tactiled-hall-setup's broker from the shipped mosquitto.conf, tactiled-hall as its
unit starts it), while tables 1 and 2 send their logs' records:
  - table 3's state names round "13-FORGED": round.json's round and the Round of boards 1
    and 2 are not it;
  - table 3 sends table 1's records under table 1's game id, and its start record under an
    id of its own: refused (round.json "dropped": "game-id-taken"), one GameId in live.pgn;
  - table 3 sends a start record, then 40,000 presses (a log replay accepts): cut at the
    table's share ("table-share", the table flagged), the hall's peak resident memory grows
    by less than HALL_RSS_GROWTH_MB;
  - table 3 sends 10,000 retained 60 KB records on record/<random id>: the broker's peak
    resident memory grows by less than BROKER_GROWTH_MB, and table 1 is still heard;
then the hall restarts on its records, table 1's record file copied into records/2 and a
line of table 2's file and the last record of table 1's edited: the page answers before the
files are read again, table 2 does not adopt table 1's game, table 2's edited line is cut
with all after it, table 1's by its seal, both asked for again (resend), and both games are
whole. Loopback only."""
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import make_log, wait_until  # noqa: E402
from raw_mqtt import RawClient  # noqa: E402
from venue import UnitHall, VenueBroker, conf_keys, log_pgn, read, with_board  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
scripts = os.path.join(source, "tests", "data", "scripts")
HALL = "open"
# The hall keeps 16 MiB of a table's records and lets a log hold 256 records its replay
# waits on (docs/hall.md, "Each table's share"); under the sanitizers (their quarantine of
# freed memory held to 16 MB) the 40,000 presses kept would have been some 45 MB.
HALL_RSS_GROWTH_MB = 128
# The shipped mosquitto.conf's memory_limit for 3 tables is 140 MB; the 10,000 retained
# records of 60 KB would be 600 MB.
BROKER_GROWTH_MB = 256
PRESSES = int(os.environ.get("HALL_SHARES_PRESSES", "40000"))  # the issue sent 300,000
RETAINED = 10000


def memory(pid):
    """The process's resident and peak resident memory, in MB (/proc/<pid>/status)."""
    fields = dict(line.split(":", 1) for line in read("/proc/%d/status" % pid).splitlines())
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))


def raw_login(broker, table):
    """A bare MQTT client with table's login over TLS, as its publish.conf says."""
    files = os.path.join(broker.dir, "tables", table)
    conf = conf_keys(os.path.join(files, "publish.conf"))
    return RawClient(int(conf["broker-port"]), username=conf["username"],
                     password=broker.password(table), cafile=os.path.join(files, "ca.crt"),
                     client_id=conf["username"])


def line(record):
    return json.dumps(record, separators=(",", ":"))


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


class StandIn:
    """Answers the hall's resend requests for a table from its log, as tactiled-publish."""

    def __init__(self, broker, table, game_id, log):
        self.asked = []
        self.process = subprocess.Popen(
            ["mosquitto_sub", *broker.as_table(table), "-q", "1",
             "-t", "tactiled/%s/%s/resend" % (HALL, table)], stdout=subprocess.PIPE, text=True)

        def answer():
            for text in self.process.stdout:
                r = json.loads(text)
                self.asked.append(r)
                if r["game_id"] == game_id:
                    broker.publish_lines(broker.as_table(table), "tactiled/%s/%s/record/%s"
                                         % (HALL, table, game_id), log[r["from"]:r["to"] + 1])
        threading.Thread(target=answer, daemon=True).start()

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


with tempfile.TemporaryDirectory() as work:
    os.chmod(work, 0o711)  # mosquitto and the hall's user get through to their files
    path1, log1 = make_log(tactiled, work, "t1", os.path.join(scripts, "molinari-bordais-1979.txt"),
                           "--time-control", "300+2")
    path2, log2 = make_log(tactiled, work, "t2", os.path.join(scripts, "chess960-both-wings.txt"),
                           "--time-control", "300+2")
    id1, id2 = json.loads(log1[0])["game_id"], json.loads(log2[0])["game_id"]
    own1, own2 = log_pgn(build, path1), log_pgn(build, path2)
    broker = VenueBroker(source, work, HALL, ["1", "2", "3"])
    asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "quarantine_size_mb=16"]))
    env = {"ASAN_OPTIONS": asan}
    hall = UnitHall(source, build, work, broker, env=env)
    login = {t: broker.as_table(t) for t in ("1", "2", "3")}
    stand_in = stand_in1 = None
    try:
        def topic(table, kind):
            return "tactiled/%s/%s/%s" % (HALL, table, kind)

        def tables():
            return hall.tables()

        def whole(table, log):
            t = tables().get(table)
            return (t and t["records"] == len(log) and t["from_records"] and not t["gap"]
                    and t["flags"] == [])

        # The forged round, retained, before anything else of the honest tables.
        assert broker.publish(login["3"], topic("3", "state"), '{"round":"13-FORGED"}',
                              retain=True) == 0
        for table, gid, log in (("1", id1, log1), ("2", id2, log2)):
            broker.publish_lines(login[table], topic(table, "record/" + gid), log)
            assert broker.publish(login[table], topic(table, "state"),
                                  '{"game_id":"%s","seq":%d}' % (gid, len(log) - 1),
                                  retain=True) == 0
        wait_until("both games whole", lambda: whole("1", log1) and whole("2", log2))

        # Table 3 sends table 1's game as its own, and table 1's start under an id of its own.
        broker.publish_lines(login["3"], topic("3", "record/" + id1), log1)
        broker.publish_lines(login["3"], topic("3", "record/" + secrets.token_hex(16)), log1[:1])
        wait_until("table 1's game refused at table 3",
                   lambda: hall.round()["dropped"].get("game-id-taken", 0) >= len(log1))
        index = hall.round()
        assert index["round"] == "", index["round"]
        live = hall.file("live.pgn")
        assert live.count('[GameId "%s"]' % id1) == 1, live
        assert "13-FORGED" not in hall.file("table-1.pgn") + hall.file("table-2.pgn")
        assert hall.file("table-1.pgn") == with_board(own1, 1), hall.file("table-1.pgn")
        assert hall.file("table-2.pgn") == with_board(own2, 2), hall.file("table-2.pgn")
        assert all(g["game_id"] != id1 for g in tables()["3"]["games"]), tables()["3"]

        # The input-only flood: a start record, then presses, each on the chain.
        rss_before = memory(hall.process.pid)[1]
        start = json.loads(log1[0])
        start["game_id"] = secrets.token_hex(16)
        flood = [line(start)]
        for n in range(1, PRESSES + 1):
            flood.append(line({"seq": n, "prev": sha(flood[-1]), "t": 1000 + n, "type": "button",
                               "board": "A", "button": "announce"}))
        client = raw_login(broker, "3")
        for text in flood:
            client.publish(topic("3", "record/" + start["game_id"]), text)
        client.sync()
        client.close()
        # Its queue read to the end: its state after the flood shown (sent again now and
        # then: the hall's queue for the table may have been full when it came).
        marked = [0.0]

        def flood_read():
            if tables()["3"]["white"] == "after the flood":
                return True
            if time.monotonic() - marked[0] > 2:
                marked[0] = time.monotonic()
                broker.publish(login["3"], topic("3", "state"),
                               '{"round":"13-FORGED","white":"after the flood"}', retain=True)
            return False
        wait_until("the flood read", flood_read, timeout=120)
        rss_after, peak = memory(hall.process.pid)
        dropped = hall.round()["dropped"]
        print("input-only flood of %d records: hall peak RSS %.0f MB before, %.0f MB (+%.0f MB), "
              "%.0f MB after; dropped %s" % (PRESSES, rss_before, peak, peak - rss_before,
                                              rss_after, dropped))
        assert dropped.get("table-share", 0) > 0, dropped
        assert any("past its share" in f for f in tables()["3"]["flags"]), tables()["3"]
        assert peak - rss_before < HALL_RSS_GROWTH_MB, (rss_before, peak)
        assert whole("1", log1) and whole("2", log2)

        # The retained flood on the broker.
        before = memory(broker.process.pid)[0]
        client = raw_login(broker, "3")
        sent = 0
        try:
            for sent in range(1, RETAINED + 1):
                client.publish(topic("3", "record/" + secrets.token_hex(16)), b"x" * 60000,
                               retain=True)
            client.sync()
            client.close()
        except (ConnectionError, OSError) as e:
            print("the broker closed the flooding login after %d messages: %s" % (sent, e))
        now, broker_peak = memory(broker.process.pid)
        print("retained flood of %d x 60 KB: broker RSS %.0f MB before, peak %.0f MB (+%.0f MB), "
              "%.0f MB after" % (RETAINED, before, broker_peak, broker_peak - before, now))
        assert broker_peak - before < BROKER_GROWTH_MB, (before, broker_peak)
        # The broker still takes the tables' messages.
        assert broker.publish(login["1"], topic("1", "status"), "offline", retain=True) == 0
        wait_until("table 1 heard after the flood", lambda: tables()["1"]["status"] == "offline")

        # The restart: table 1's record file copied into table 2's directory, a line of
        # table 2's file edited.
        assert hall.stop() == 0
        records = os.path.join(hall.dir, "records")
        [file1] = [f for f in os.listdir(os.path.join(records, "1")) if id1 in f]
        [file2] = [f for f in os.listdir(os.path.join(records, "2")) if id2 in f]
        copied = os.path.join(records, "2", "0099-%s.jsonl" % id1)
        shutil.copyfile(os.path.join(records, "1", file1), copied)
        copied_text = read(copied)

        def edit(path, seq):
            """The record seq of a kept file edited in place (a space in its "t")."""
            lines = read(path).splitlines(keepends=True)
            records = [t for t in lines[1:] if not t.startswith('{"seal":')]
            logs = {id1: log1, id2: log2}
            assert records == [text + "\n" for text in logs[json.loads(lines[0])["game_id"]]], \
                "the file is its table's log and its seals"
            at = next(i for i, t in enumerate(lines) if t.startswith('{"seq":%d,' % seq))
            lines[at] = lines[at].replace('"t":', '"t": ', 1)
            with open(path, "w") as f:
                f.writelines(lines)
        edit(os.path.join(records, "2", file2), 40)
        edit(os.path.join(records, "1", file1), len(log1) - 1)  # its last, vouched by its seal
        stand_in = StandIn(broker, "2", id2, log2)
        stand_in1 = StandIn(broker, "1", id1, log1)
        began = time.monotonic()
        hall = UnitHall(source, build, work, broker, name="hall2", env=env, state=hall.dir)
        with urllib.request.urlopen(hall.url + "round.json", timeout=10) as r:
            assert r.status == 200
        page_took = time.monotonic() - began
        wait_until("both games whole again", lambda: whole("1", log1) and whole("2", log2),
                   timeout=30)
        text = hall.text()
        assert text.index("page at") < text.index("records restored"), text
        assert "not adopted" in text, text
        assert any(r["game_id"] == id2 and r["from"] == 40 for r in stand_in.asked), stand_in.asked
        assert any(r["game_id"] == id1 and r["from"] == len(log1) - 1 for r in stand_in1.asked), \
            stand_in1.asked
        t2 = tables()["2"]
        assert t2["game_id"] == id2 and [g["game_id"] for g in t2["games"]] == [id2], t2
        assert not os.path.exists(os.path.join(hall.dir, "table-2-%s.pgn" % id1))
        assert hall.file("live.pgn").count('[GameId "%s"]' % id1) == 1
        assert read(copied) == copied_text, "the copy is left as it was"
        # Restarted once more: nothing cut again, nothing stuck.
        assert hall.stop() == 0
        state = hall.dir
        hall = UnitHall(source, build, work, broker, name="hall3", env=env, state=state)
        wait_until("both games whole from the files", lambda: whole("1", log1) and whole("2", log2))
        assert "cut, asked for again" not in hall.text(), hall.text()
        print("the restarted hall answered its page in %.2f s" % page_took)
    finally:
        for s in (stand_in, stand_in1):
            if s:
                s.stop()
        hall.stop()
        broker.stop()
print("hall shares test passed")
