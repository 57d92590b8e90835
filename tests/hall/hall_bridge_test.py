# SPDX-License-Identifier: GPL-3.0-or-later
"""Past one hall (docs/hall-scale.md): a venue's mosquitto bridged to a central one as the
page shows (QoS 1, cleansession false, topic tactiled/# out, persistence on both), a
tactiled-hall on each, two tables' records (real logs made by tactiled --replay) sent to
the venue while the link is cut twice: the central broker stopped and started again, then
the venue's broker (the bridge's side) stopped and started again. Both halls' live.pgn end
with both games whole, from their records; a request for records again (resend) sent at
the central broker reaches the venue's once."""
import os
import subprocess
import sys
import time
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import (Broker, Hall, log_pgn, make_log, publish, publish_one,  # noqa: E402
                          wait_until)

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
tactilectl = os.path.join(build, "daemon", "tactilectl")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
scripts = os.path.join(source, "tests", "data", "scripts")
HALL = "open-a"


class PersistentBroker(Broker):
    """A mosquitto on a free loopback port that keeps its sessions and queues across a
    restart (persistence, in a directory the user mosquitto may write), with extra lines."""

    def __init__(self, workdir, name, extra=""):
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir)
        os.chmod(self.dir, 0o777)  # mosquitto started as root runs as the user mosquitto
        super().__init__(self.dir, start=False)
        with open(self.conf, "w") as f:
            f.write("persistence true\npersistence_location %s/\n" % self.dir
                    + "listener %d 127.0.0.1\nallow_anonymous true\n" % self.port
                    + "log_type all\n" + extra)
        self.start()


def bridged(central_port):
    """The venue's bridge, as docs/hall-scale.md has it, to the central broker here."""
    return ("connection venue-a-to-central\naddress 127.0.0.1:%d\ncleansession false\n"
            "topic tactiled/# out 1\ntopic tactiled/+/+/resend in 1\nrestart_timeout 1 2\n"
            % central_port)


def with_board(pgn, board):
    head, rest = pgn.split("[LogHead ", 1)
    line, rest = rest.split("\n", 1)
    return head + "[LogHead " + line + '\n[Board "%d"]\n' % board + rest


with tempfile.TemporaryDirectory() as work:
    os.chmod(work, 0o711)
    path1, log1 = make_log(tactiled, work, "t1", os.path.join(scripts, "molinari-bordais-1979.txt"),
                           "--time-control", "300+2")
    path2, log2 = make_log(tactiled, work, "t2", os.path.join(scripts, "chess960-both-wings.txt"),
                           "--chess960", "607", "--completion", "auto")
    central = PersistentBroker(work, "central")
    venue = PersistentBroker(work, "venue", bridged(central.port))
    venue_hall = Hall(hall_binary, os.path.join(work, "venue"), venue, hall=HALL)
    central_hall = Hall(hall_binary, os.path.join(work, "central"), central, hall=HALL)
    try:
        def sent_through(n1, n2, hall):
            tables = {t["table"]: t["records"] for t in hall.round()["tables"]}
            return tables.get("1") == n1 and tables.get("2") == n2

        thirds1, thirds2 = len(log1) // 3, len(log2) // 3
        publish(venue, "tactiled/%s/1/record" % HALL, log1[:thirds1])
        publish(venue, "tactiled/%s/2/record" % HALL, log2[:thirds2])
        wait_until("the first third at the central hall",
                   lambda: sent_through(thirds1, thirds2, central_hall))

        # The link cut at the central end while the games go on at the venue.
        central.stop()
        publish(venue, "tactiled/%s/1/record" % HALL, log1[thirds1:2 * thirds1])
        publish(venue, "tactiled/%s/2/record" % HALL, log2[thirds2:2 * thirds2])
        wait_until("the venue hall to have the second third",
                   lambda: sent_through(2 * thirds1, 2 * thirds2, venue_hall))
        central.start()
        wait_until("the second third at the central hall after the link is back",
                   lambda: sent_through(2 * thirds1, 2 * thirds2, central_hall), timeout=30)

        # The bridge's own side stopped and started again (the venue broker's restart);
        # the tables send again from their logs what was not acknowledged, and go on.
        venue.stop()
        venue.start()
        publish(venue, "tactiled/%s/1/record" % HALL, log1[2 * thirds1:])
        publish(venue, "tactiled/%s/2/record" % HALL, log2[2 * thirds2:])

        own1 = with_board(log_pgn(tactilectl, path1), 1)
        own2 = with_board(log_pgn(tactilectl, path2), 2)
        for name, hall in (("venue", venue_hall), ("central", central_hall)):
            try:
                wait_until("the %s hall's live.pgn to hold both games whole" % name,
                           lambda: hall.file("live.pgn") == own1 + "\n" + own2, timeout=30)
            except AssertionError:
                print(name, "live.pgn:\n" + hall.file("live.pgn"), hall.file("round.json"))
                raise
            # round.json is written just after live.pgn: it may be one rewrite behind.
            def indexed():
                tables = {t["table"]: t for t in hall.round()["tables"]}
                return all(tables.get(t, {}).get("records") == n for t, n in
                           (("1", len(log1)), ("2", len(log2)))) and tables
            tables = wait_until("the %s hall's round.json to count every record" % name, indexed)
            for t in ("1", "2"):
                assert tables[t]["from_records"] and not tables[t]["gap"], tables[t]
        # The central hall's requests for records again reach the venue's tables, once,
        # and do not come back (the bridge's two directions make no loop). Probes first,
        # until both readers are subscribed and the probe has crossed.
        readers = []
        for name, broker in (("venue", venue), ("central", central)):
            out = open(os.path.join(work, "resend-at-" + name), "w+")
            readers.append((out, subprocess.Popen(
                ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-t",
                 "tactiled/%s/1/resend" % HALL], stdout=out, stderr=subprocess.DEVNULL)))

        def lines(out):
            out.flush()
            out.seek(0)
            return out.read().splitlines()

        def probed():
            publish_one(central, "tactiled/%s/1/resend" % HALL, "probe")
            time.sleep(0.3)
            return all("probe" in lines(out) for out, _ in readers)
        wait_until("a probe to reach both readers", probed)
        request = '{"game_id":"%s","from":3,"to":5}' % ("a" * 32)
        publish_one(central, "tactiled/%s/1/resend" % HALL, request)
        wait_until("the request at both", lambda: all(request in lines(out) for out, _ in readers))
        time.sleep(1.0)  # long enough for a loop to bring it again
        for out, reader in readers:
            reader.terminate()
            reader.wait(10)
            assert [line for line in lines(out) if line != "probe"] == [request], lines(out)
        # Both halls heard the requests (and probes) on their `#`: passed over, not counted
        # as bad topics (round.json is rewritten within coalesce-ms of a drop).
        for hall in (venue_hall, central_hall):
            assert hall.round().get("dropped", {}) == {}, hall.round()["dropped"]
        assert venue_hall.stop() == 0 and central_hall.stop() == 0
    finally:
        venue_hall.stop()
        central_hall.stop()
        venue.stop()
        central.stop()
print("hall bridge test passed")
