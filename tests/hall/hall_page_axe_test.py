# SPDX-License-Identifier: GPL-3.0-or-later
"""The arbiter's page checked by axe-core, the standard engine for automated WCAG checks,
in a real browser (headless chromium through selenium and chromium-driver), on a test hall
with a table in each state the page draws: no alarm, a discrepancy (board and squares), a
flag fallen with a bad record, offline, a suspect board with a failed self-test, every
other alarm, a finished game, a table with two games and one with no clock, and what lichess
said of each game (the round pushed to tests/hall/fake_lichess.py, which refuses one).

At a desktop width and at 320 px (a phone): zero axe-core violations; at 320 px nothing is
wider than the screen and every clock stands whole on one line inside its table's
section. Also: the title counts the tables in alarm, the summary at the top links each of
them, and every PGN the page links (live.pgn, each table's game, each earlier game) is
served. axe-core is the npm package script/setup installs into /opt/tactiled/node
(TACTILED_NODE_PREFIX); TACTILED_AXE_JS names another axe.min.js. Screenshots of both
widths go to <build>/artifacts/hall-page-axe-{desktop,320}.png."""
import base64
import json
import os
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, make_log, publish, publish_one, wait_until  # noqa: E402
from fake_lichess import FakeLichess  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
scripts = os.path.join(source, "tests", "data", "scripts")
artifacts = os.path.join(build, "artifacts")
os.makedirs(artifacts, exist_ok=True)

axe_js = os.environ.get("TACTILED_AXE_JS") or os.path.join(
    os.environ.get("TACTILED_NODE_PREFIX", "/opt/tactiled/node"),
    "node_modules", "axe-core", "axe.min.js")
if not os.path.isfile(axe_js):
    sys.exit("hall_page_axe: axe-core not found at %s: run script/setup (it installs the "
             "npm package axe-core into /opt/tactiled/node), or set TACTILED_AXE_JS to an "
             "axe.min.js" % axe_js)
with open(axe_js) as f:
    axe_source = f.read()

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
E4 = {"san": "e4", "uci": "e2e4", "by": "white"}


def state(white, black, alarms=(), running="white", fen=AFTER_E4, last_move=E4, **more):
    s = {"white": white, "black": black, "round": "1", "fen": fen, "white_ms": 281000,
         "black_ms": 296000, "running": running, "read_at": 1000, "last_move": last_move,
         "alarms": list(alarms), "result": "*", "discrepancies": []}
    s.update(more)
    return json.dumps(s)


def game_id(log):
    return next(json.loads(line)["game_id"] for line in log if '"game_id"' in line)


with tempfile.TemporaryDirectory() as work:
    _, finished = make_log(tactiled, work, "finished",
                           os.path.join(scripts, "molinari-bordais-1979.txt"),
                           "--time-control", "300+2")
    _, earlier = make_log(tactiled, work, "earlier",
                          os.path.join(scripts, "chess960-both-wings.txt"),
                          "--chess960", "607", "--completion", "auto")
    _, current = make_log(tactiled, work, "current",
                          os.path.join(scripts, "molinari-bordais-1979.txt"),
                          "--time-control", "300+2")
    assert len({game_id(finished), game_id(earlier), game_id(current)}) == 3
    broker = Broker(work)
    # The round pushed to a (fake) lichess, which refuses table 3's game: what lichess said
    # of each game is drawn beside its table.
    lichess = FakeLichess(["abcd1234"], "lip_axe")
    lichess.game_errors["3"] = "Illegal move: 7. Ke9"
    lichess.delay = 0
    with open(os.path.join(work, "token"), "w") as f:
        f.write("lip_axe\n")
    # The round began at 09:00 UTC: table 5's self-test of 08:10 is older than the round.
    hall = Hall(hall_binary, work, broker, options=[
        "--round-start", "2026-11-25T09:00Z", "--round", "1", "--lichess-push", "abcd1234",
        "--lichess-url", lichess.url, "--lichess-token-file", os.path.join(work, "token")])
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--no-first-run"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.set_script_timeout(120)
    try:
        # 1: a finished game (Molinari - Bordais, 0-1), no alarm.
        publish(broker, "tactiled/open/1/record/" + game_id(finished), finished)
        publish_one(broker, "tactiled/open/1/state",
                    state("Molinari", "Bordais", running="none", result="0-1"), retain=True)
        # 2: a discrepancy on board B at e2 and e4.
        publish_one(broker, "tactiled/open/2/state", state(
            "Ann", "Bo", ["discrepancy"], running="black",
            discrepancies=[{"board": "B", "squares": ["e2", "e4"]}]), retain=True)
        # 3: White's flag fallen, and a record the hall could not read (a flag on the page).
        publish_one(broker, "tactiled/open/3/state",
                    state("Cleo", "Dan", ["flag"], white_ms=0), retain=True)
        publish_one(broker, "tactiled/open/3/record", "this is no log record")
        # 4: the table's publisher gone (offline), its clock standing.
        publish_one(broker, "tactiled/open/4/state", state("Eve", "Finn"), retain=True)
        publish_one(broker, "tactiled/open/4/status", "offline", retain=True)
        # 5: a suspect board whose last self-test failed, before the round began.
        suspect = json.loads(state("Gus", "Hal", ["board-suspect", "self-test-failed"],
                                   running="black"))
        suspect["health"] = {"A": {"chatter": 2, "suspect": ["a1", "e4"], "self_test": {
            "passed": False, "time": "2026-11-25T08:10:03Z", "failed": ["g6"]}}}
        publish_one(broker, "tactiled/open/5/state", json.dumps(suspect), retain=True)
        # 6: two games: a Chess960 game, then a new game (its first moves) with a clock of
        # an hour and more.
        publish(broker, "tactiled/open/6/record/" + game_id(earlier), earlier)
        publish(broker, "tactiled/open/6/record/" + game_id(current), current[:len(current) // 3])
        publish_one(broker, "tactiled/open/6/state",
                    state("Ida", "Jon", white_ms=5400000, black_ms=5399000), retain=True)
        # 7: every other alarm at once, on a game without a clock.
        publish_one(broker, "tactiled/open/7/state", state(
            "Kim", "Lou", ["board-lost", "fault", "paused", "adjourned", "daemon-stopped"],
            running="none", white_ms=None, black_ms=None, daemon_last_seen=1795579488463),
            retain=True)
        in_alarm = ["2", "3", "4", "5", "7"]

        def tables():
            return {t["table"]: t for t in hall.round()["tables"]}

        wait_until("every table in the hall", lambda: len(tables()) == 7 and
                   tables()["1"]["result"] == "0-1" and len(tables()["6"]["games"]) == 2 and
                   tables()["6"]["records"] == len(current) // 3 and tables()["3"]["flags"]
                   and tables()["4"]["status"] == "offline")
        wait_until("lichess's answers in the hall", lambda: all(
            t["lichess"] for t in tables().values()) and tables()["3"]["lichess"] ==
            {"error": "Illegal move: 7. Ke9"})

        browser.get(hall.url)

        def page(script, *args):
            return browser.execute_script(script, *args)

        def drawn():
            return page("""
              const s = [...document.querySelectorAll('#tables > section')];
              return s.map((e) => [e.id, e.querySelector('h2').textContent,
                                   e.querySelectorAll('.alarms li').length]);""")

        def everything_drawn():
            d = drawn()
            return [x[0] for x in d] == ["table-" + str(i) for i in range(1, 8)] and \
                "0-1" in d[0][1] and d[6][2] == 5 and d[3][2] == 1
        wait_until("every table on the page", everything_drawn)
        # Each alarm styled by its kind: every kind the page draws has a colour of its own.
        styles = page("""
          const out = {};
          for (const li of document.querySelectorAll('#tables .alarms li')) {
            const s = getComputedStyle(li);
            out[li.className] = [s.backgroundColor, s.borderLeftColor, s.color];
          }
          return out;""")
        assert sorted(styles) == sorted("alarm-" + k for k in (
            "discrepancy", "flag", "offline", "board-suspect", "self-test-failed",
            "self-test-old", "board-lost",
            "fault", "paused", "adjourned", "daemon-stopped")), styles
        for kind, (background, border, colour) in styles.items():
            assert background not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), (kind, background)
            assert border != colour, (kind, "a border of its own", border)
        # The self-test older than the round names the board and when it was tested.
        said = page("""return [...document.querySelectorAll('#tables > section')].map((s) =>
                       [...s.querySelectorAll('p.flags')].map((p) => p.textContent)
                       .filter((t) => t.includes('lichess')).join());""")
        assert said[2] == "lichess refused this game: Illegal move: 7. Ke9", said
        assert said[0] == "On lichess: %d moves" % tables()["1"]["moves"], said
        old = page("""return [...document.querySelectorAll('#table-5 .alarm-self-test-old')]
                      .map((li) => li.textContent);""")
        assert old == ["Self-test older than the round: board A (last 2026-11-25 08:10:03 UTC)"], old
        wait_until("the connection live", lambda: page(
            "return document.getElementById('connection').textContent;") == "Live")

        # The title carries the count of tables in alarm; the summary links each of them.
        wait_until("the title's count", lambda: browser.title ==
                   "(%d alarms) Hall open, round 1 - tactiled" % len(in_alarm))
        summary = page("""
          const s = document.getElementById('alarm-summary');
          return {hidden: s.hidden, links: [...s.querySelectorAll('a')].map((a) =>
            [a.getAttribute('href'), a.textContent,
             !!document.getElementById(a.getAttribute('href').slice(1))])};""")
        assert summary["hidden"] is False, summary
        assert summary["links"] == [["#table-" + t, "Board " + t, True] for t in in_alarm], \
            summary

        # Every file the page links is served: live.pgn, round.json, each table's game and
        # each earlier game.
        links = page("""return [...document.querySelectorAll('a[href]')]
            .map((a) => a.href).filter((h) => !h.includes('#'));""")
        expected = {"live.pgn", "round.json"} | {"table-%d.pgn" % i for i in range(1, 8)} | \
            {"table-6-%s.pgn" % game_id(earlier)}
        assert {h[len(hall.url):] for h in links} == expected, links
        for href in links:
            with urllib.request.urlopen(href, timeout=10) as reply:
                assert reply.status == 200, (href, reply.status)
                body = reply.read().decode()
                assert body.strip(), href
                if href.endswith(".pgn"):
                    assert '[Board "' in body, (href, body[:200])
        # Table 6's earlier game is its own file: the Chess960 game, from its start position.
        with urllib.request.urlopen(hall.url + "table-6-%s.pgn" % game_id(earlier),
                                    timeout=10) as reply:
            body = reply.read().decode()
            assert '[FEN "rqnkrnbb/pppppppp/8/8/8/8/PPPPPPPP/RQNKRNBB w' in body, body[:600]

        def check_axe(width):
            """Zero axe-core violations at this width: every rule axe runs by default
            (WCAG 2.0 to 2.2 A and AA, best practices), and two it leaves off: target-size
            (WCAG 2.2 AA) and color-contrast-enhanced (AAA, 7:1: the page is read from
            across a hall, on a phone in a bright room)."""
            page(axe_source)
            assert page("return typeof axe === 'object' && typeof axe.run === 'function';"), \
                "axe-core did not load from " + axe_js
            result = browser.execute_async_script("""
              const done = arguments[arguments.length - 1];
              axe.run(document, {rules: {"target-size": {enabled: true},
                                         "color-contrast-enhanced": {enabled: true}}})
                .then((r) => done({
                version: axe.version,
                passes: r.passes.length,
                incomplete: r.incomplete.map((v) => v.id),
                violations: r.violations.map((v) => ({
                  id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map((n) => ({target: n.target, summary: n.failureSummary}))
                }))
              }), (e) => done({error: String(e)}));""")
            assert "error" not in result, result
            for v in result["violations"]:
                print("axe violation at %d px: %s (%s): %s" % (width, v["id"], v["impact"],
                                                                 v["help"]))
                for n in v["nodes"]:
                    print("    %s: %s" % (" ".join(map(str, n["target"])),
                                          (n["summary"] or "").replace("\n", " ")))
            print("axe-core %s at %d px: %d rules passed, %d violated, needs review: %s" % (
                result["version"], width, result["passes"], len(result["violations"]),
                ", ".join(result["incomplete"]) or "none"))
            assert result["passes"] > 20, result  # axe really ran its rules
            return [v["id"] for v in result["violations"]]

        def set_width(width, height, mobile):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            # (The viewport's width as media queries see it: window.innerWidth grows on a
            # phone when the page is wider than its screen, the browser zooming out.)
            wait_until("the page at %d px" % width, lambda: page(
                "return matchMedia('(width: ' + arguments[0] + 'px)').matches;", width))

        violations = {}
        set_width(1280, 900, False)
        violations[1280] = check_axe(1280)
        browser.save_screenshot(os.path.join(artifacts, "hall-page-axe-desktop.png"))

        # A phone 320 px wide.
        set_width(320, 800, True)
        violations[320] = check_axe(320)
        wide = page("return [document.documentElement.scrollWidth, window.innerWidth];")
        assert wide[0] <= 320 and wide[1] == 320, \
            "the page is wider than 320 px (scroll width, inner width): %s" % wide
        # Nothing sticks out of its table's section, and each clock stands whole on one
        # line within it, readable (its own text, not cut off).
        layout = page("""
          const out = [];
          for (const sec of document.querySelectorAll('#tables > section')) {
            const box = sec.getBoundingClientRect();
            if (box.left < 0 || box.right > window.innerWidth)
              out.push([sec.id, 'section outside the screen', box.left, box.right]);
            for (const e of sec.querySelectorAll('*')) {
              if (e.closest('.sr')) continue;
              const r = e.getBoundingClientRect();
              if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
                out.push([sec.id, e.tagName + '.' + e.className, 'sticks out', r.left, r.right]);
            }
            const clocks = sec.querySelectorAll('.clock');
            if (clocks.length !== 2) out.push([sec.id, 'clocks', clocks.length]);
            for (const c of clocks) {
              const r = c.getBoundingClientRect();
              const style = getComputedStyle(c);
              // An inline box broken over lines has a rectangle per line.
              if (c.getClientRects().length !== 1 || r.height > 2 * parseFloat(style.fontSize))
                out.push([sec.id, c.className, 'broken over lines', r.height]);
              if (!(r.width > 0 && r.height > 0) || style.visibility !== 'visible')
                out.push([sec.id, c.className, 'not visible']);
              if (!/^(White|Black) ((\\d+:)?\\d+:\\d\\d|no clock)$/.test(c.textContent))
                out.push([sec.id, c.className, 'text', c.textContent]);
            }
          }
          return out;""")
        assert not layout, "at 320 px: %s" % layout
        # The whole page at 320 px, not only the screen's height.
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True})
        with open(os.path.join(artifacts, "hall-page-axe-320.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        assert violations == {1280: [], 320: []}, \
            "axe-core violations (listed above): %s" % violations
    finally:
        browser.quit()
        hall.stop()
        broker.stop()
        lichess.stop()
print("hall page axe test passed: no axe-core violations at 1280 and 320 px; screenshots in "
      + artifacts)
