# SPDX-License-Identifier: GPL-3.0-or-later
"""A bare MQTT 3.1.1 client for floods (no library in the test's way): CONNECT with a login,
PUBLISH at QoS 0 (retained or not) as fast as the socket takes it, then a PINGREQ whose
PINGRESP says the broker has read everything sent before it."""
import socket
import ssl
import struct


def _length(n):
    out = b""
    while True:
        byte, n = n % 128, n // 128
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def _text(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("!H", len(b)) + b


class RawClient:
    def __init__(self, port, host="127.0.0.1", username=None, password=None, cafile=None,
                 client_id="flood"):
        sock = socket.create_connection((host, port), timeout=30)
        if cafile:
            context = ssl.create_default_context(cafile=cafile)
            context.check_hostname = False
            sock = context.wrap_socket(sock)
        self.sock = sock
        flags = 0x02  # clean session
        payload = _text(client_id)
        if username is not None:
            flags |= 0x80
            payload += _text(username)
        if password is not None:
            flags |= 0x40
            payload += _text(password)
        body = _text("MQTT") + bytes([4, flags]) + struct.pack("!H", 60) + payload
        self.sock.sendall(bytes([0x10]) + _length(len(body)) + body)
        ack = self._read(4)
        if ack[0] != 0x20 or ack[3] != 0:
            raise ConnectionError("refused: %r" % ack)

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed by the broker")
            data += chunk
        return data

    def publish(self, topic, payload, retain=False):
        body = _text(topic) + (payload if isinstance(payload, bytes) else payload.encode())
        self.sock.sendall(bytes([0x30 | (1 if retain else 0)]) + _length(len(body)) + body)

    def sync(self):
        """Waits until the broker has read everything sent so far."""
        self.sock.sendall(b"\xc0\x00")
        while True:
            head = self._read(2)
            if head[0] == 0xD0:
                return
            self._read(head[1])

    def close(self):
        try:
            self.sock.sendall(b"\xe0\x00")
        finally:
            self.sock.close()
