# SPDX-License-Identifier: GPL-3.0-or-later
"""The arbiter's page in a real browser (headless chromium through selenium and
chromium-driver): it shows the tables of a running test hall, updates when a move is
published, shows an alarm when one is raised, and leaves a screenshot in
<build>/artifacts/hall-page.png."""
import json
import os
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, make_log, publish, publish_one, wait_until  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
tactiled = os.path.join(build, "daemon", "tactiled")
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")
artifacts = os.path.join(build, "artifacts")
os.makedirs(artifacts, exist_ok=True)


def state(white, black, last_move, alarms, running="white", fen=None, discrepancies=(),
          training=False):
    return json.dumps({"white": white, "black": black, "round": "1", "fen": fen,
                       "training": training,
                       "white_ms": 281000,
                       "black_ms": 296000, "running": running, "read_at": 1000,
                       "last_move": last_move, "alarms": alarms, "result": "*",
                       "discrepancies": list(discrepancies)})


AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

with tempfile.TemporaryDirectory() as work:
    _, log = make_log(tactiled, work, "t1",
                      os.path.join(source, "tests", "data", "scripts",
                                   "molinari-bordais-1979.txt"), "--time-control", "300+2")
    # The records up to just before White's first move is made (its e2 hole lifted).
    first_move = next(i for i, line in enumerate(log) if '"square":"e4"' in line)
    broker = Broker(work)
    hall = Hall(hall_binary, work, broker, options=["--round", "1"])  # the page's title
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1000,900"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        publish(broker, "tactiled/open/1/record", log[:first_move])
        publish_one(broker, "tactiled/open/1/state",
                    state("Molinari", "Bordais", None, []), retain=True)
        publish_one(broker, "tactiled/open/2/state",
                    state("Ann", "Bo", {"san": "e4", "uci": "e2e4", "by": "white"}, [],
                          running="black", fen=AFTER_E4, training=True), retain=True)
        browser.get(hall.url)

        # The page redraws a table's section whenever its state changes, so an element
        # found in one WebDriver call can be gone by the next (a stale reference). Each
        # read is therefore one script run inside the page: atomic against a redraw.
        def attribute(selector, name):
            return browser.execute_script(
                "const e = document.querySelector(arguments[0]);"
                "if (!e) return '';"
                "if (arguments[1] === 'innerText') return e.innerText;"
                "return e.getAttribute(arguments[1]) || '';", selector, name)

        def text(selector):
            return attribute(selector, "innerText")

        def label(table, square):
            return attribute('#table-%s td[data-square="%s"]' % (table, square), "aria-label")

        def count(selector):
            return browser.execute_script(
                "return document.querySelectorAll(arguments[0]).length;", selector)

        # Both tables, as boards a screen reader can walk.
        wait_until("both tables on the page",
                   lambda: "Molinari" in text("#head-1") and "Ann" in text("#head-2"))
        assert "Board 1" in text("#head-1") and "Board 2" in text("#head-2")
        # Table 2 trains against an engine: marked in its heading, read with it; table 1
        # plays a tournament game.
        wait_until("the training mark", lambda: text("#head-2 .training") == "Training")
        assert text("#head-2").endswith("Training"), text("#head-2")
        assert count("#table-1 .training") == 0
        # Table 2 has sent no records yet: its state's position stands on its board.
        wait_until("table 2's position", lambda: label("2", "e4") == "e4 white pawn")
        assert attribute('#table-2 td[data-square="a1"]', "class") == "dark"
        wait_until("the start position", lambda: label("1", "e2") == "e2 white pawn")
        assert label("1", "e4") == "e4 empty"
        assert count("#table-1 table.board td[data-square]") == 64
        assert attribute("#announce", "aria-live") == "assertive"
        # The running clock runs on, the other stands. The state's read_at (1000: a Pi
        # whose clock stands in 1970) is put on the hall's clock when the state comes, so
        # White's 4:41 is not shown as run out.
        wait_until("the clocks", lambda: text("#table-1 .clock.white").startswith("White 4:")
                   and "4:56" in text("#table-1 .clock.black"))
        white = text("#table-1 .clock.white")
        wait_until("White's clock to run", lambda: text("#table-1 .clock.white") != white)

        # Sections marked, to see which the next change draws anew.
        browser.execute_script("document.getElementById('table-1').dataset.mark = 'before';"
                               "document.getElementById('table-2').dataset.mark = 'before';")

        # A move is made on table 1: its records and its new state are published.
        publish(broker, "tactiled/open/1/record", log[first_move:first_move + 8])
        publish_one(broker, "tactiled/open/1/state",
                    state("Molinari", "Bordais", {"san": "e4", "uci": "e2e4", "by": "white"},
                          [], running="black"), retain=True)
        wait_until("the move on the board", lambda: label("1", "e4") == "e4 white pawn"
                   and label("1", "e2") == "e2 empty")
        wait_until("the last move", lambda: "e4" in text("#table-1 .last-move"))
        wait_until("the move read out", lambda: "Board 1: e4" in
                   browser.execute_script(
                       "return document.getElementById('announce').textContent;"))

        # Only table 1 was drawn anew: table 2, unchanged, is the same element (a screen
        # reader reading it keeps its place).
        assert attribute("#table-1", "data-mark") == ""
        assert attribute("#table-2", "data-mark") == "before"
        assert [attribute("#tables > section:nth-of-type(%d)" % i, "id") for i in (1, 2)] == \
            ["table-1", "table-2"]

        # Moves are read out in words (the page's own function, on SAN the hall sends).
        for san, words in (("Nxe4+", "Knight takes e4, check"), ("e4", "e4"),
                           ("exd8=Q#", "e takes d8 promotes to queen, checkmate"),
                           ("O-O-O", "castles queenside"), ("Rad1", "Rook a to d1")):
            got = browser.execute_script("return moveWords(arguments[0]);", san)
            assert got == words, (san, got)
        assert browser.title == "Hall open, round 1 - tactiled", browser.title
        hidden = "return document.getElementById('alarm-summary').hidden;"
        assert browser.execute_script(hidden) is True

        # An alarm is raised on table 2, and table 1's publisher goes offline.
        publish_one(broker, "tactiled/open/2/state",
                    state("Ann", "Bo", {"san": "e4", "uci": "e2e4", "by": "white"},
                          ["discrepancy"], running="black", fen=AFTER_E4,
                          discrepancies=[{"board": "B", "squares": ["e2", "e4"]}],
                          training=True), retain=True)
        publish_one(broker, "tactiled/open/1/status", "offline", retain=True)
        wait_until("the alarm", lambda: "Discrepancy on board B at e2, e4" in text("#table-2 .alarms"))
        assert attribute("#table-2 .alarms li", "class") == "alarm-discrepancy"
        wait_until("the alarm read out", lambda: "Board 2 alarm: discrepancy" in
                   browser.execute_script(
                       "return document.getElementById('announce').textContent;"))
        wait_until("table 1 offline", lambda: "Table offline since" in text("#table-1 .alarms"))
        assert "alarm" in attribute("#table-2", "class")
        assert text("#table-1 .last-move").startswith("Last move: e4")
        # The summary at the top links each table in alarm; the title counts them.
        wait_until("the title's count", lambda: browser.title.startswith("(2 alarms) Hall open"))
        assert browser.execute_script(hidden) is False
        assert attribute('#alarm-list a[href="#table-2"]', "href") == "#table-2"
        assert "Discrepancy on board B" in text("#alarm-list")
        # The offline table's clock stands (White's was running).
        white = text("#table-1 .clock.white")
        wait_until("a second of the ticker", lambda: browser.execute_script(
            "return new Promise(r => setTimeout(() => r(true), 1100));"))
        assert text("#table-1 .clock.white") == white
        # The alarm clears: said so.
        publish_one(broker, "tactiled/open/2/state",
                    state("Ann", "Bo", {"san": "e4", "uci": "e2e4", "by": "white"}, [],
                          running="black", fen=AFTER_E4, training=True), retain=True)
        wait_until("the cleared alarm read out", lambda: "Board 2: discrepancy cleared" in
                   browser.execute_script(
                       "return document.getElementById('announce').textContent;"))
        wait_until("the title's count", lambda: browser.title.startswith("(1 alarm) Hall open"))
        # The page links live.pgn and each table's game.
        assert attribute('a[href="live.pgn"]', "href") == "live.pgn"
        assert attribute('#table-1 a[href="table-1.pgn"]', "href") == "table-1.pgn"

        # Table 2's board goes suspect (a hole reads wrong) and its self-test had failed.
        suspect = json.loads(state("Ann", "Bo", {"san": "e4", "uci": "e2e4", "by": "white"},
                                   ["board-suspect", "self-test-failed"], running="black",
                                   fen=AFTER_E4, training=True))
        suspect["health"] = {"A": {"chatter": 0, "suspect": ["a1"], "self_test": {
            "passed": False, "time": "2026-11-25T08:10:03Z", "failed": ["g6"]}}}
        publish_one(broker, "tactiled/open/2/state", json.dumps(suspect), retain=True)
        wait_until("the suspect board", lambda: "Board suspect: board A holes a1" in
                   text("#table-2 .alarms"))
        assert "Self-test failed: board A holes g6" in text("#table-2 .alarms")
        assert attribute("#table-2 .alarms li", "class") == "alarm-board-suspect"
        # Then its tactiled stops answering: the publisher says since when.
        suspect["alarms"].append("daemon-stopped")
        suspect["daemon_last_seen"] = 1795579488463
        publish_one(broker, "tactiled/open/2/state", json.dumps(suspect), retain=True)
        wait_until("the silent daemon", lambda: "tactiled silent since " in
                   text("#table-2 .alarms"))

        # The files are served too (a browser would download the PGN: read it directly).
        with urllib.request.urlopen(hall.url + "live.pgn", timeout=10) as reply:
            # UTF-8 said, as a broadcast's URL source wants it (issue 37).
            assert reply.headers["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
            assert '[Board "1"]' in reply.read().decode()
        with urllib.request.urlopen(hall.url + "round.json", timeout=10) as reply:
            assert [t["board"] for t in json.load(reply)["tables"]] == [1, 2]
        with urllib.request.urlopen(hall.url + "table-1.pgn", timeout=10) as reply:
            assert '[Board "1"]' in reply.read().decode()
        # A phone 320 px wide: nothing wider than the screen.
        browser.set_window_size(320, 800)
        wait_until("the narrow layout", lambda: browser.execute_script(
            "return window.innerWidth <= 320;"))
        width = browser.execute_script("return document.documentElement.scrollWidth;")
        assert width <= browser.execute_script("return window.innerWidth;"), width
        browser.set_window_size(1000, 900)
        browser.save_screenshot(os.path.join(artifacts, "hall-page.png"))
        assert os.path.getsize(os.path.join(artifacts, "hall-page.png")) > 1000
    finally:
        browser.quit()
        hall.stop()
        broker.stop()
print("hall page test passed: screenshot in " + os.path.join(artifacts, "hall-page.png"))
