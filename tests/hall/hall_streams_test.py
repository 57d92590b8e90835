# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's event streams over real HTTP (docs/hall.md, "Limits"): 16 streams from each of
30 addresses, again and again, hold at most 8 an address and 128 in all, and every viewer
at an address of its own is served and keeps its stream while they go on.
Loopback addresses 127.0.1.x are the attackers, 127.0.2.x the viewers."""
import os
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, closed, stream, wait_until  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
# A viewer is served, not refused or left waiting behind the attackers' streams: the bound
# only ends a test whose viewer never gets its page (how long each took is printed, never
# asserted: a busy machine must not fail the test). ThreadSanitizer and qemu-user stretch
# it by TACTILED_TEST_SLOWDOWN.
VIEWER_BOUND_S = 20.0 * float(os.environ.get("TACTILED_TEST_SLOWDOWN", "1"))


def first_event(s, timeout):
    """The stream's header and first page JSON, within timeout s."""
    s.settimeout(timeout)
    data = b""
    began = time.monotonic()
    while b"\ndata: {" not in data:
        chunk = s.recv(65536)
        assert chunk, "the stream was closed"
        data += chunk
    return data, time.monotonic() - began


with tempfile.TemporaryDirectory() as work:
    broker = Broker(work)
    hall = Hall(hall_binary, work, broker)
    port = int(hall.url.rsplit(":", 1)[1].strip("/"))
    attackers = {}
    viewers = []
    try:
        def attack():
            for a in range(30):
                address = "127.0.1.%d" % (a + 1)
                for _ in range(16):
                    attackers.setdefault(address, []).append(stream(port, address))

        def held():
            """The attackers' streams still open, by address (closed ones forgotten)."""
            for address in attackers:
                attackers[address] = [s for s in attackers[address] if not closed(s)]
            return {a: len(ss) for a, ss in attackers.items()}

        attack()
        # The server closes what makes room at once: the caps hold within a second or two.
        counts = wait_until("the streams capped", lambda: (lambda c: c if sum(c.values()) <= 128
                            and max(c.values()) <= 8 else None)(held()), timeout=20)
        print("attackers hold", sum(counts.values()), "streams")
        # 40 viewers, each at an address of its own, each served at once; the attack goes
        # on between them.
        waits = []
        for v in range(40):
            s = stream(port, "127.0.2.%d" % (v + 1), timeout=VIEWER_BOUND_S)
            _, took = first_event(s, VIEWER_BOUND_S)
            waits.append(took)
            viewers.append(s)
            if v % 10 == 9:
                attack()
        # Once the server has taken every connection the attack made (what waits in the
        # kernel's queue looks open here), the caps hold again, the viewers' streams counted.
        wait_until("the streams capped with the viewers'", lambda: (
            lambda c: sum(c.values()) + len(viewers) <= 128 and max(c.values()) <= 8)(held()),
            timeout=20)
        for v, s in enumerate(viewers):
            assert not closed(s), "viewer %d lost its stream" % v
        waits.sort()
        print("viewers served: median %.0f ms, max %.0f ms" % (1000 * waits[20], 1000 * waits[-1]))
    finally:
        for ss in attackers.values():
            for s in ss:
                s.close()
        for s in viewers:
            s.close()
        hall.stop()
        broker.stop()
print("hall streams test passed")
