# SPDX-License-Identifier: GPL-3.0-or-later
"""A braille display as brltty's Virtual driver sees it (brltty -b vr -d server:SOCKET):
the test's own stand-in for the hardware. The driver speaks lines of text on a Unix
socket: the display says how many cells it has ("cells N"), brltty sends what it shows
("Visual "TEXT"", among other lines), and the display sends key commands by brltty's
names ("ROUTE 3", "LNDN", "FWINRT", "PASSDOTS 0x1d"). A thread reads what brltty shows, so
that the test can wait for a given text while it presses keys."""
import socket
import threading
import time


class VirtualDisplay:
    def __init__(self, socket_path, cells, connect_timeout=10.0):
        self.cells = cells
        self.shown = []  # every Visual text brltty sent, in order (trailing blanks cut)
        self.other = []  # brltty's other lines, for a failure's message
        self._lock = threading.Condition()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        end = time.monotonic() + connect_timeout
        while True:
            try:
                self._sock.connect(socket_path)
                break
            except OSError:
                if time.monotonic() > end:
                    raise RuntimeError("brltty's Virtual driver socket never came: " + socket_path)
                time.sleep(0.05)
        self._sock.sendall(f"cells {cells}\n".encode())
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        pending = b""
        while True:
            try:
                data = self._sock.recv(4096)
            except OSError:
                break
            if not data:
                break
            pending += data
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                with self._lock:
                    if line.startswith('Visual "') and line.endswith('"'):
                        self.shown.append(line[len('Visual "'):-1].rstrip())
                    else:
                        self.other.append(line)
                    self._lock.notify_all()

    def text(self):
        with self._lock:
            return self.shown[-1] if self.shown else None

    def wait_for(self, what, predicate, timeout=10.0, since=0):
        """The first text shown from index `since` on for which predicate(text) holds."""
        end = time.monotonic() + timeout
        with self._lock:
            while True:
                for text in self.shown[since:]:
                    if predicate(text):
                        return text
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the display never showed {what}; it showed "
                                         f"{self.shown[-8:]!r}")
                self._lock.wait(left)

    def mark(self):
        """The index of the next text shown (for wait_for's `since`)."""
        with self._lock:
            return len(self.shown)

    def press(self, command):
        """A key, by brltty's command name: "ROUTE 4", "LNDN", "PASSDOTS 0x1d"."""
        self._sock.sendall((command + "\n").encode())

    def close(self):
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        self._reader.join(timeout=2)


def dots(*numbers):
    """PASSDOTS's argument for braille dots given by number (1 .. 8): bit n-1 each."""
    mask = 0
    for n in numbers:
        mask |= 1 << (n - 1)
    return f"PASSDOTS 0x{mask:02x}"
