# SPDX-License-Identifier: GPL-3.0-or-later
"""What the hall tests share: a real mosquitto on a free loopback port, tactiled-hall as
a process, arbiter logs made by tactiled --replay, records published with mosquitto_pub,
and waiting by polling (never a fixed sleep)."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from waiting import wait_until  # noqa: E402,F401 (the hall tests take it from here)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stream(port, address, timeout=10):
    """A viewer's /events stream, opened from the loopback address `address` (127.x.y.z)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                 source_address=(address, 0))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: hall\r\n\r\n")
    return s


def closed(s):
    """True once the server has closed s (all it sent read and dropped)."""
    s.settimeout(0)  # non-blocking: what has come, or BlockingIOError
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def port_open(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Broker:
    def __init__(self, workdir, start=True):
        self.port = free_port()
        self.conf = os.path.join(workdir, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\n" % self.port)
        self.log = open(os.path.join(workdir, "mosquitto.log"), "a")
        self.process = None
        if start:
            self.start()

    def start(self):
        self.process = subprocess.Popen(["mosquitto", "-c", self.conf], stdout=self.log,
                                        stderr=subprocess.STDOUT)
        wait_until("mosquitto to listen", lambda: port_open(self.port))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


class Hall:
    def __init__(self, binary, workdir, broker, hall="open", options=()):
        self.dir = os.path.join(workdir, "out")
        os.makedirs(self.dir, exist_ok=True)
        self.output = open(os.path.join(workdir, "hall.out"), "w+")
        self.process = subprocess.Popen(
            [binary, "--config", "/dev/null", "--hall", hall, "--broker-port",
             str(broker.port), "--broker-host", "127.0.0.1", "--output-dir", self.dir,
             "--http-address", "127.0.0.1", "--http-port", "0", *options],
            stdout=self.output, stderr=subprocess.STDOUT)

        def url():
            self.output.seek(0)
            m = re.search(r"page at (http://\S+)", self.output.read())
            return m.group(1) if m else None
        self.url = wait_until("tactiled-hall to print its page", url)

    def file(self, name):
        try:
            with open(os.path.join(self.dir, name)) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def round(self):
        text = self.file("round.json")
        return json.loads(text) if text else {"tables": []}

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        return self.process.returncode


def make_log(tactiled, workdir, name, script, *options):
    """An arbiter log as tactiled writes it (tests/data/logs/README.md), as its lines."""
    path = os.path.join(workdir, name + ".jsonl")
    subprocess.run([tactiled, "--replay", script, "--language", "en", "--log", path,
                    "--pgn", os.path.join(workdir, name + ".pgn"),
                    *options], check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        return path, f.read().splitlines()


def publish(broker, topic, lines, retain=False):
    """Each line one QoS 1 message on topic, in order."""
    command = ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1",
               "-t", topic, "-l"]
    if retain:
        command.append("-r")
    subprocess.run(command, input="\n".join(lines) + "\n", text=True, check=True)


def publish_one(broker, topic, payload, retain=False):
    command = ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1",
               "-t", topic, "-m", payload]
    if retain:
        command.append("-r")
    subprocess.run(command, check=True)


def control_free(text):
    """No control character (but the newline), C1 control or bidi override in text."""
    return not any(ord(c) < 0x20 and c != "\n" or 0x7F <= ord(c) <= 0x9F or
                   0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069 for c in text)


def assert_page_sane(page):
    """The page's tables.json after bad payloads: nothing raw in it, each field of the
    type and range the page shows (a board A or B, a suspect a list, times bounded)."""
    assert control_free(json.dumps(page, ensure_ascii=False))
    for t in page["tables"]:
        for b, h in t["health"].items():
            assert b in ("A", "B") and isinstance(h["suspect"], list), t["health"]
        for d in t["discrepancies"]:
            assert d["board"] in ("A", "B"), d
        for key in ("white_ms", "black_ms"):
            assert t[key] is None or abs(t[key]) <= 10 * 24 * 3600 * 1000, t
        assert t["read_at"] is None or 0 <= t["read_at"] <= 4102444800000 + 10**12, t


def log_pgn(tactilectl, path):
    """The game's own PGN, as tactilectl log pgn rebuilds it from the log."""
    return subprocess.run([tactilectl, "log", "pgn", path], check=True, text=True,
                          capture_output=True).stdout
