# SPDX-License-Identifier: GPL-3.0-or-later
"""A venue as installed, for the hall tests that need one: the broker set-up made by
tactiled-hall-setup from the shipped mosquitto.conf (logins, ACL, TLS) on a real mosquitto,
real tables (tactiled on a script board, a FIFO, with its tactiled-publish over TLS with
the table's own login), and tactiled-hall started the way its unit starts it."""
import json
import os
import re
import shutil
import socket
import subprocess

from hall_harness import free_port, port_open, wait_until

# The uid a unit's DynamicUser= gets (systemd's range 61184-65519): no such user exists.
UNIT_UID = 61990


def read(path):
    with open(path) as f:
        return f.read()


def conf_keys(path):
    """The key = value lines of a settings file."""
    return dict(line.split(" = ", 1) for line in read(path).splitlines()
                if " = " in line and not line.startswith("#"))


class VenueBroker:
    """mosquitto with the configuration tactiled-hall-setup writes from the shipped one."""

    def __init__(self, source, work, hall, tables):
        self.hall = hall
        self.dir = os.path.join(work, "broker")
        self.port, self.tls_port = free_port(), free_port()
        command = [os.path.join(source, "daemon", "tactiled-hall", "tactiled-hall-setup"),
                   "--hall", hall, "--dir", self.dir, "--broker-host", "127.0.0.1",
                   "--port", str(self.port), "--tls-port", str(self.tls_port),
                   "--tls-address", "127.0.0.1",
                   "--template", os.path.join(source, "packaging", "hall", "mosquitto.conf")]
        for t in tables:
            command += ["--table", t]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        self.log_path = os.path.join(work, "mosquitto.log")
        self.log = open(self.log_path, "a")
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            ["mosquitto", "-c", os.path.join(self.dir, "mosquitto.conf")], stdout=self.log,
            stderr=subprocess.STDOUT)
        try:
            wait_until("mosquitto to listen",
                       lambda: port_open(self.port) and port_open(self.tls_port))
        except AssertionError:
            self.log.flush()
            print(read(self.log_path))
            raise

    def password(self, table):
        return read(os.path.join(self.dir, "tables", table, "publish.password")).strip()

    def as_table(self, table):
        """mosquitto_pub/sub's options for table's login over TLS, as its publish.conf says."""
        conf = conf_keys(os.path.join(self.dir, "tables", table, "publish.conf"))
        return ["-h", conf["broker-host"], "-p", conf["broker-port"], "--cafile",
                os.path.join(self.dir, "tables", table, "ca.crt"), "-u", conf["username"],
                "-P", self.password(table)]

    def publish_lines(self, login, topic, lines, retain=False, check=True):
        """Each line one QoS 1 message (bytes: any payload at all); mosquitto_pub's exit
        status (a failure raised when check)."""
        command = ["mosquitto_pub", *login, "-q", "1", "-t", topic, "-l"]
        if retain:
            command.append("-r")
        data = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n"
                        for line in lines)
        return subprocess.run(command, input=data, check=check, capture_output=True).returncode

    def publish(self, login, topic, payload, retain=False):
        """One QoS 1 message of any bytes, from a file; mosquitto_pub's exit status."""
        path = os.path.join(self.dir, "payload")
        with open(path, "wb") as f:
            f.write(payload if isinstance(payload, bytes) else payload.encode())
        command = ["mosquitto_pub", *login, "-q", "1", "-t", topic, "-f", path]
        if retain:
            command.append("-r")
        return subprocess.run(command, capture_output=True).returncode

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def ask(control, request, timeout=5):
    """One request on tactiled's control socket; its answer, or None (no answer within
    `timeout` seconds among them)."""
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(timeout)
            s.connect(control)
            s.sendall((json.dumps(request) + "\n").encode())
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
            return json.loads(answer)
    except (OSError, ValueError):
        return None


class LiveTable:
    """A real tactiled on a script board (a FIFO) and its real tactiled-publish, with the
    publish.conf tactiled-hall-setup wrote for the table (its login, TLS)."""

    def __init__(self, build, work, broker, name):
        self.name = name
        self.dir = os.path.join(work, "table-" + name)
        os.makedirs(os.path.join(self.dir, "publish-state"))
        fifo = os.path.join(self.dir, "board.fifo")
        os.mkfifo(fifo)
        self.control = os.path.join(self.dir, "ctl")
        self.log = os.path.join(self.dir, "game.jsonl")
        self.tactiled = subprocess.Popen(
            [os.path.join(build, "daemon", "tactiled"), "--board", "script", "--script", fifo,
             "--control", self.control, "--speech", "off", "--log", self.log, "--pgn",
             os.path.join(self.dir, "game.pgn"), "--auto-resume", "off", "--language", "en",
             "--time-control", "300+2"],
            stdout=open(os.path.join(self.dir, "tactiled.out"), "w"), stderr=subprocess.STDOUT)
        wait_until("tactiled " + name, lambda: ask(self.control, {"command": "status"}))
        self.board = os.open(fifo, os.O_WRONLY)
        # The set-up's publish.conf with this machine's paths for its files.
        files = os.path.join(broker.dir, "tables", name)
        text = read(os.path.join(files, "publish.conf"))
        text = text.replace("/etc/tactiled/hall-ca.crt", os.path.join(files, "ca.crt"))
        text = text.replace("/etc/tactiled/publish.password",
                            os.path.join(files, "publish.password"))
        self.conf = os.path.join(self.dir, "publish.conf")
        with open(self.conf, "w") as f:
            f.write(text + "control = %s\nstate-directory = %s\n"
                    % (self.control, os.path.join(self.dir, "publish-state")))
        self.publisher = subprocess.Popen(
            [os.path.join(build, "daemon", "tactiled-publish", "tactiled-publish"), "--config",
             self.conf], stdout=open(os.path.join(self.dir, "publish.out"), "w"),
            stderr=subprocess.STDOUT)
        answer = ask(self.control, {"command": "start"})
        assert answer and answer.get("ok"), answer

    def moves(self):
        s = ask(self.control, {"command": "status"})
        return s.get("moves", 0) if s else 0

    def move(self, uci):
        """One move (no capture) on the board as a player makes it, announced."""
        before = self.moves()
        text = "0 A up %s\n0 A down %s\n0 A button announce\n" % (uci[:2], uci[2:4])
        os.write(self.board, text.encode())
        wait_until("table %s to make %s" % (self.name, uci), lambda: self.moves() == before + 1)

    def stop(self):
        for p in (self.publisher, self.tactiled):
            if p.poll() is None:
                p.terminate()
        for p in (self.publisher, self.tactiled):
            p.wait(10)
        os.close(self.board)


# A game with no capture and no castling (each move one piece up, one down).
QUIET_GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d3", "d7d6",
              "b1d2", "a7a6", "h2h3", "h7h6", "a2a4", "c8e6", "b2b4", "c5b6", "d1e2", "d8e7"]


def unit_credential(source):
    """The credential tactiled-hall.service hands the hall (its LoadCredential= line)."""
    unit = read(os.path.join(source, "systemd", "tactiled-hall.service.in"))
    m = re.search(r"^LoadCredential=([^:\s]+)$", unit, re.M)
    assert m, "the hall's unit loads no credential"
    assert re.search(r"^DynamicUser=yes$", unit, re.M)
    return m.group(1)


def unit_credentials(source):
    """Every credential tactiled-hall.service loads (its LoadCredential= lines)."""
    unit = read(os.path.join(source, "systemd", "tactiled-hall.service.in"))
    return re.findall(r"^LoadCredential=([^:\s]+)$", unit, re.M)


def credentials_path(work):
    """Where a UnitHall's $CREDENTIALS_DIRECTORY is."""
    return os.path.join(work, "credentials")


class VenueHall:
    """What the tests share of a running tactiled-hall, however started: the page's address
    it prints, the files of its output directory (self.dir), its stop."""

    def wait_for_page(self, start=0):
        """Waits for the page's address in self.output, from offset start on."""
        def url():
            self.output.seek(start)
            m = re.search(r"page at (http://\S+)", self.output.read())
            return m.group(1) if m else None
        self.url = wait_until("tactiled-hall to print its page", url)
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def file(self, name):
        try:
            return read(os.path.join(self.dir, name))
        except FileNotFoundError:
            return ""

    def round(self):
        text = self.file("round.json")
        return json.loads(text) if text else {"tables": [], "dropped": {}}

    def tables(self):
        return {t["table"]: t for t in self.round()["tables"]}

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        return self.process.returncode


class UnitHall(VenueHall):
    """tactiled-hall started as tactiled-hall.service starts it: as a user of its own that
    owns only its state directory, the broker password handed over in
    $CREDENTIALS_DIRECTORY (what systemd does with LoadCredential=; systemd is not process 1
    here), the hall.conf tactiled-hall-setup wrote."""

    def __init__(self, source, build, work, broker, name="hall", extra="", env=None,
                 state=None, secrets=None):
        self.work = os.path.join(work, name)
        self.dir = os.path.join(self.work, "state")  # StateDirectory=
        if state:  # another hall's state directory (its records): a restart elsewhere
            shutil.copytree(state, self.dir, symlinks=True)
        else:
            os.makedirs(self.dir)
        for root, dirs, files in os.walk(self.dir):
            for name_ in dirs + files:
                os.lchown(os.path.join(root, name_), UNIT_UID, UNIT_UID)
        os.chown(self.dir, UNIT_UID, UNIT_UID)
        credentials = credentials_path(self.work)
        os.makedirs(credentials)
        # systemd's copy: read-only, the unit's user's own, root's file left as it is.
        target = os.path.join(credentials, unit_credential(source))
        shutil.copyfile(os.path.join(broker.dir, "hall", "hall.password"), target)
        os.chown(target, UNIT_UID, UNIT_UID)
        os.chmod(target, 0o400)
        # Other credentials of the unit's (its LoadCredential= names), by name: their text.
        for credential, text in (secrets or {}).items():
            assert credential in unit_credentials(source), credential
            path = os.path.join(credentials, credential)
            with open(path, "w") as f:
                f.write(text)
            os.chown(path, UNIT_UID, UNIT_UID)
            os.chmod(path, 0o400)
        os.chown(credentials, UNIT_UID, UNIT_UID)
        os.chmod(credentials, 0o500)
        self.conf = os.path.join(self.work, "hall.conf")
        with open(self.conf, "w") as f:
            f.write(read(os.path.join(broker.dir, "hall", "hall.conf"))
                    + "output-dir = %s\nhttp-address = 127.0.0.1\nhttp-port = 0\n" % self.dir
                    + extra)
        os.chmod(self.conf, 0o644)
        self.output_path = os.path.join(self.work, "hall.out")
        self.output = open(self.output_path, "a+")
        env = dict(os.environ, CREDENTIALS_DIRECTORY=credentials, **(env or {}))
        self.process = subprocess.Popen(
            as_unit_user([os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall"),
                          "--config", self.conf]),
            stdout=self.output, stderr=subprocess.STDOUT, env=env)
        self.wait_for_page()

    def text(self):
        self.output.seek(0)
        return self.output.read()


def as_unit_user(command):
    """command run as the unit's dynamic user would run it: another uid and gid, no
    supplementary group, no new privileges."""
    return ["setpriv", "--reuid", str(UNIT_UID), "--regid", str(UNIT_UID), "--clear-groups",
            "--no-new-privs", *command]


def with_board(pgn, board):
    """A game's own PGN as live.pgn has it: with its Board tag after LogHead."""
    head, rest = pgn.split("[LogHead ", 1)
    line, rest = rest.split("\n", 1)
    return head + "[LogHead " + line + '\n[Board "%s"]\n' % board + rest


def log_pgn(build, log):
    return subprocess.run([os.path.join(build, "daemon", "tactilectl"), "log", "pgn", log],
                          check=True, text=True, capture_output=True).stdout
