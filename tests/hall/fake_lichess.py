# SPDX-License-Identifier: GPL-3.0-or-later
"""A fake of lichess's broadcast push endpoint on a loopback port, for the hall's lichess
test: a contract test. It holds every request to lichess's published API types (npm
@lichess-org/types, the OpenAPI specification as TypeScript: the push path and
BroadcastPgnPush, read from its lichess-api.d.ts) and to lila's rules (modules/relay):

  - POST on the push path of a round it knows, "Authorization: Bearer TOKEN", a UTF-8
    body of the operation's type (text/plain) with at most as many games as its
    description allows (100);
  - one request at a time, each starting at least a second after the last one's start,
    none within a minute of a 429;
  - the body split as lila splits it (the "\\r" removed, then at a blank line before a tag),
    each part one game whose every move is legal (replayed by chessops, lichess's rules
    library: tests/hall/lichess_games_check.mjs) and carries [%clk];
  - a real White and Black (lila drops a game whose name is one character, "?" or
    "unknown"), Event and Site that never change, a Board tag, Round "r.b".

Its answers are lichess's: 200 with BroadcastPgnPush (each game's tags and moves, or its
error), checked against the published type before they are sent; 429, or 401 for a
refused token, when told. Whatever
breaks the contract is kept in `violations` (a handler's thread cannot fail the test)."""
import http.server
import json
import os
import re
import subprocess
import threading
import time

SPACING = 1.0
AFTER_429 = 60.0
# The hall's start of a request is taken before its connection is made, the fake's once
# the request is read: the two clocks may differ by that much.
SLACK = 0.1
MAX_BODY = 1024 * 1024  # the fake's own bound: 100 games of a long round are some 300 KB


def node_prefix():
    return os.environ.get("TACTILED_NODE_PREFIX", "/opt/tactiled/node")


class PublishedTypes:
    """What lichess-api.d.ts says of the push: its path, and BroadcastPgnPush's fields."""

    def __init__(self):
        path = os.path.join(node_prefix(), "node_modules", "@lichess-org", "types",
                            "lichess-api.d.ts")
        chessops = os.path.join(node_prefix(), "node_modules", "chessops", "package.json")
        for needed in (path, chessops):
            if not os.path.isfile(needed):
                raise SystemExit("fake_lichess: %s not found: run script/setup (it installs the "
                                 "npm packages @lichess-org/types and chessops into %s)"
                                 % (needed, node_prefix()))
        with open(path) as f:
            text = f.read()
        m = re.search(r'^  "(/api/broadcast/round/\{(\w+)\}/push)": \{', text, re.M)
        assert m, "no push path in " + path
        self.path, self.parameter = m.group(1), m.group(2)
        m = re.search(r"^    BroadcastPgnPush: \{\n      games: \{\n(.*?)\n      \}\[\];\n    \};",
                      text, re.M | re.S)
        assert m, "no BroadcastPgnPush in " + path
        # Each field of a game: name, whether optional, its type.
        self.fields = {}
        for line in m.group(1).splitlines():
            f = re.match(r"\s*(\w+)(\??): (.*);$", line)
            assert f, line
            self.fields[f.group(1)] = (f.group(2) == "?", f.group(3))
        assert re.search(r"BroadcastPgnPushTags: \{\n\s*\[key: string\]: string;", text)
        # The operation: its body's type and how many games it takes, as its description
        # says ("It can contain up to 100 games").
        m = re.search(r"^  broadcastPush: \{\n(.*?)^  \};", text, re.M | re.S)
        assert m, "no broadcastPush operation in " + path
        operation = m.group(1)
        m = re.search(r'requestBody: \{\n\s*content: \{\n\s*"([\w/]+)": string;', operation)
        assert m, operation
        self.body_type = m.group(1)
        m = re.search(r"up to (\d+) games", operation)
        assert m, operation
        self.max_games = int(m.group(1))

    def path_pattern(self):
        return re.compile("^" + re.escape(self.path).replace(
            re.escape("{" + self.parameter + "}"), "([A-Za-z0-9]+)") + "$")

    def check_reply(self, reply):
        """Whether reply is a BroadcastPgnPush, as the type says: a list of games, each
        with the fields it names, of their types, the required ones present."""
        assert set(reply) == {"games"} and isinstance(reply["games"], list), reply
        kinds = {"number": (int,), "string": (str,)}
        for g in reply["games"]:
            for name, value in g.items():
                assert name in self.fields, (name, self.fields)
                optional, kind = self.fields[name]
                if name == "tags":
                    assert all(isinstance(k, str) and isinstance(v, str) for k, v in
                               value.items()), value
                else:
                    assert isinstance(value, kinds[kind]), (name, value, kind)
            for name, (optional, _) in self.fields.items():
                assert optional or name in g, (name, g)


def tags_of(part):
    return dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', part, re.M))


def real_name(name):
    """lila's rule: a name of one character, "?" or "unknown" is no name."""
    name = name.strip()
    return len(name) > 1 and name.lower() != "unknown"


class FakeLichess:
    def __init__(self, rounds, token):
        self.types = PublishedTypes()
        self.pattern = self.types.path_pattern()
        self.rounds, self.token = set(rounds), token
        self.lock = threading.Lock()
        self.violations = []
        self.requests = []  # {"start", "end", "round", "status", "games": [checked game]}
        self.in_flight = 0
        self.most_in_flight = 0
        self.last_start = None
        self.quiet_until = 0.0
        self.stable = {}  # board -> the tags that must never change
        # What the test makes the next answers say.
        self.answer_429 = False  # the next request is answered 429
        self.refuse_token = False  # the token is refused (as lichess does a revoked one)
        self.game_errors = {}  # board -> lila's error words for that game
        self.delay = 0.3  # a slow lichess: a request overlapping another would show
        self.checker = subprocess.Popen(
            ["node", os.path.join(os.path.dirname(__file__), "lichess_games_check.mjs")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                fake.serve(self)

            def do_GET(self):
                fake.violation("a GET of " + self.path)
                self.send_error(404)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def violation(self, words):
        with self.lock:
            self.violations.append(words)

    def check_games(self, body):
        with self.lock:  # one node process: one body at a time
            self.checker.stdin.write(json.dumps({"pgn": body}) + "\n")
            self.checker.stdin.flush()
            return json.loads(self.checker.stdout.readline())["games"]

    def serve(self, handler):
        start = time.monotonic()
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            if self.in_flight > 1:
                self.violations.append("two requests at once")
            if self.last_start is not None and start - self.last_start < SPACING - SLACK:
                self.violations.append("a request %.3f s after the last one's start"
                                       % (start - self.last_start))
            if start < self.quiet_until - SLACK:
                self.violations.append("a request %.1f s after a 429"
                                       % (AFTER_429 - (self.quiet_until - start)))
            self.last_start = start
        try:
            status, reply, record = self.answer(handler, start)
        finally:
            time.sleep(self.delay)
            with self.lock:
                self.in_flight -= 1
        data = json.dumps(reply).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
        record["end"] = time.monotonic()
        with self.lock:
            if status == 429:
                self.quiet_until = record["end"] + AFTER_429
            self.requests.append(record)

    def answer(self, handler, start):
        record = {"start": start, "status": 400, "games": [], "round": None}
        m = self.pattern.match(handler.path)
        if not m or m.group(1) not in self.rounds:
            self.violation("the path " + handler.path)
            return 404, {"error": "Not found"}, record
        record["round"] = m.group(1)
        if handler.headers.get("Authorization") != "Bearer " + self.token:
            self.violation("the Authorization header")
            return 401, {"error": "No such token"}, record
        if self.refuse_token:
            return 401, {"error": "No such token"}, record
        if not (handler.headers.get("Content-Type") or "").startswith(self.types.body_type):
            self.violation("Content-Type " + str(handler.headers.get("Content-Type")))
        length = int(handler.headers.get("Content-Length", "-1"))
        if not 0 < length <= MAX_BODY:
            self.violation("a body of %d bytes" % length)
            return 400, {"error": "Bad body"}, record
        raw = handler.rfile.read(length)
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.violation("a body that is not UTF-8")
            return 400, {"error": "Not UTF-8"}, record
        if self.answer_429:
            self.answer_429 = False
            record["status"] = 429
            return 429, {"error": "Too many requests. Try again later."}, record
        parts = [p for p in re.split(r"\n\n(?=\[)", body.replace("\r", "")) if p.strip()]
        if len(parts) > self.types.max_games:
            self.violation("%d games in one push" % len(parts))
        read = self.check_games(body)
        if len(read) != len(parts):
            self.violation("chessops read %d games of %d" % (len(read), len(parts)))
        games = []
        for part, game in zip(parts, read):
            tags = tags_of(part)
            board = tags.get("Board", "")
            if "error" in game:
                self.violation("board %s: %s" % (board, game["error"]))
            elif game["clocks"] != game["moves"]:
                self.violation("board %s: %d of %d moves without [%%clk]"
                               % (board, game["moves"] - game["clocks"], game["moves"]))
            if not all(real_name(tags.get(side, "")) for side in ("White", "Black")):
                self.violation("board %s: no real names %s" % (board, tags))
            if not board.isdigit() or tags.get("Round", "").split(".")[-1] != board:
                self.violation("board %s: Round %r" % (board, tags.get("Round")))
            fixed = {k: tags.get(k) for k in ("Event", "Site", "Round", "Board", "White",
                                              "Black")}
            with self.lock:
                if self.stable.setdefault(board, fixed) != fixed:
                    self.violations.append("board %s: %s became %s"
                                           % (board, self.stable[board], fixed))
            reply_tags = {k: v for k, v in tags.items() if k != "Date"}  # lila drops Date
            if board in self.game_errors:
                games.append({"tags": reply_tags, "error": self.game_errors[board]})
            else:
                games.append({"tags": reply_tags, "moves": game.get("moves", 0)})
            record["games"].append(dict(game, board=board, tags=tags, text=part))
        reply = {"games": games}
        try:
            self.types.check_reply(reply)
        except AssertionError as e:
            self.violation("the fake's own reply is no BroadcastPgnPush: %s" % e)
        record["status"] = 200
        return 200, reply, record

    def answered(self):
        with self.lock:
            return [r for r in self.requests if r["status"] == 200]

    def stop(self):
        self.server.shutdown()
        self.checker.stdin.close()
        self.checker.wait(10)
