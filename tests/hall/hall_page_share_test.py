# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's HTTP against a crowd (issue 34, docs/hall.md "Limits"), over real sockets:

- a request that sends one header line every second (a slow half-sent request) is closed
  once its 5 s for the header are up, whatever its pace; a request that stops half-way
  likewise;
- 200 addresses (127.0.1.x) holding one event stream each, every one reconnecting the
  moment it is closed: more addresses than the 128 streams the page holds, so they take
  each other's room, again and again; a viewer that came before them and one that comes in
  the middle (127.0.2.x) keep their streams throughout.

Bounds are generous (the time a slow request stays is asserted under 20 s, the 5 s it is
given plus a busy machine's delay); the flood is counted in reconnections, not seconds."""
import os
import selectors
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, closed, stream, wait_until  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
SLOW_BOUND_S = 20.0 * float(os.environ.get("TACTILED_TEST_SLOWDOWN", "1"))


def connect(port, address):
    return socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(address, 0))


def slow_request(port, address, lines_every_s, stop_after=None):
    """Sends a request's header one line at a time; returns how long the server let it
    stay (until it closed the connection), or None if it was still open after 60 lines."""
    s = connect(port, address)
    began = time.monotonic()
    try:
        s.sendall(b"GET / HTTP/1.1\r\n")
        for n in range(60):
            if closed(s):
                return time.monotonic() - began
            if stop_after is None or n < stop_after:
                try:
                    s.sendall(b"X-Slow-%d: %s\r\n" % (n, b"a" * 20))
                except OSError:
                    return time.monotonic() - began
            time.sleep(lines_every_s)
        return None
    finally:
        s.close()


class Crowd:
    """Addresses holding one stream each, reconnecting as soon as the server closes one;
    counts the reconnections."""

    def __init__(self, port, addresses):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.reconnections = 0
        self.stopping = False
        for address in addresses:
            self.open(address)
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def open(self, address):
        s = stream(self.port, address)
        s.setblocking(False)
        self.selector.register(s, selectors.EVENT_READ, address)

    def run(self):
        while not self.stopping:
            for key, _ in self.selector.select(timeout=0.2):
                s = key.fileobj
                try:
                    gone = not s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    gone = True
                if gone:
                    self.selector.unregister(s)
                    s.close()
                    self.open(key.data)
                    self.reconnections += 1

    def stop(self):
        self.stopping = True
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


with tempfile.TemporaryDirectory() as work:
    broker = Broker(work)
    hall = Hall(hall_binary, work, broker)
    port = int(hall.url.rsplit(":", 1)[1].strip("/"))
    crowd = None
    viewers = []
    try:
        # -- Slow requests: one header line a second, and one that stops after two lines.
        results = {}

        def slow(name, *args):
            results[name] = slow_request(port, *args)
        threads = [threading.Thread(target=slow, args=("paced", "127.0.3.1", 1.0)),
                   threading.Thread(target=slow, args=("stalled", "127.0.3.2", 1.0, 2))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name, took in results.items():
            assert took is not None, "the %s request was still open after 60 s" % name
            print("the %s request closed after %.1f s" % (name, took))
            assert 4.0 <= took < SLOW_BOUND_S, "the %s request stayed %.1f s" % (name, took)

        # -- A viewer, then 200 addresses of one stream each, reconnecting when closed.
        viewers.append(("early", stream(port, "127.0.2.1")))
        crowd = Crowd(port, ["127.0.1.%d" % (a + 1) for a in range(200)])
        # 72 more than the 128 streams: they make room among themselves.
        wait_until("the crowd reconnecting", lambda: crowd.reconnections >= 300, timeout=120)
        viewers.append(("late", stream(port, "127.0.2.2")))
        start = crowd.reconnections
        wait_until("the crowd reconnecting with both viewers in",
                   lambda: crowd.reconnections >= start + 2000, timeout=300)
        for name, s in viewers:
            assert not closed(s), "the %s viewer lost its stream" % name
        print("both viewers kept their streams through %d reconnections"
              % crowd.reconnections)
    finally:
        if crowd:
            crowd.stop()
        for _, s in viewers:
            s.close()
        hall.stop()
        broker.stop()
print("hall page share test passed")
