# SPDX-License-Identifier: GPL-3.0-or-later
"""A hall that hears no table of its name for a minute says so (docs/hall.md, Settings):
a hall.conf whose hall name is mistyped ("opne") while the tables publish as "open" runs
no empty hall without a word: after a minute a line in the journal and a notice on the
page (/tables.json "notice"), gone once a table of its name is heard."""
import json
import os
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from hall_harness import Broker, Hall, publish_one, wait_until  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
hall_binary = os.path.join(build, "daemon", "tactiled-hall", "tactiled-hall")


def page(hall):
    return json.loads(urllib.request.urlopen(hall.url + "tables.json", timeout=5).read())


def output(hall):
    hall.output.seek(0)
    return hall.output.read()


with tempfile.TemporaryDirectory() as work:
    broker = Broker(work)
    hall = Hall(hall_binary, work, broker, hall="opne")
    try:
        started = time.monotonic()
        publish_one(broker, "tactiled/open/1/status", "online", retain=True)
        time.sleep(50)
        assert "notice" not in page(hall), page(hall)  # not before a minute
        wait_until("the notice", lambda: "notice" in page(hall), timeout=30)
        assert time.monotonic() - started >= 59
        assert "opne" in page(hall)["notice"], page(hall)
        assert "No table of hall 'opne' heard for a minute" in output(hall), output(hall)
        # A table of its name: the notice goes.
        publish_one(broker, "tactiled/opne/1/status", "online", retain=True)
        wait_until("the notice gone", lambda: "notice" not in page(hall))
        assert "a table of hall 'opne' is heard now" in output(hall)
        assert hall.stop() == 0
    finally:
        hall.stop()
        broker.stop()
print("hall name test passed")
