# SPDX-License-Identifier: GPL-3.0-or-later
"""Speech as a real-time channel, measured on the audio (issue 33): the real tactiled live
in English on a script board (a FIFO), 30+0 with warnings at 0:20, 0:15 and 0:10, `time`
pressed every 2 s, two illegal moves, White's flag. Its speech goes to an ALSA PCM of type
`file` writing into a pipe (a FIFO kept at 4 KiB, about 90 ms of speech) that a thread
here drains at the speed of speech, as a sound card plays it, stamping each sample with
the time it is heard. Outside the daemon, on that audio, for every move made: the delay
until its announcement is heard (the espeak-ng program's samples of the phrase the log
says was announced, found in what was heard by the shape of their loudness), and how long
after the move older speech still played. Goal: each move heard within 150 ms, at most
100 ms of older speech after it, the flag's phrase within 300 ms.

Usage: speech_latency.py SOURCE_DIR BUILD_DIR [--bench]
Without --bench (the test suite): asserts only that each move and the flag are heard
within 1 s. With --bench (script/bench): prints every figure, the medians and maxima."""
import fcntl
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
from daemon_process import print_tail, stop  # noqa: E402

source, build = sys.argv[1], sys.argv[2]
bench = "--bench" in sys.argv[3:]
tactiled_bin = os.path.join(build, "daemon", "tactiled")
RATE = 22050  # espeak-ng's samples a second, 16-bit mono
FRAME = 110  # samples of one loudness frame: 5 ms
FRAME_S = FRAME / RATE
LOUD = 300.0  # a frame's RMS above this is speech
# tactiled's English voice (espeak_voice in drivers/speech/espeak_speaker.cpp): the
# program's speech of a phrase must be the same voice's to be found in what was heard.
ENGLISH_VOICE = "en-us+klatt2"

# (seconds after the clock starts, script line): the game. White's clock: 30 s, running
# from 0; his warnings fall at 11.0 s (0:20), 17.0 s (0:15) and 22.0 s (0:10) of this
# timeline, his flag at 32.5 s. Moves avoid the c file (its English name may be spelt
# otherwise for the voice than in the log).
GAME = [
    (0.0, "A button announce"),  # the clocks start: White to move
    (0.5, "A up e2"), (0.6, "A down e4"),
    (1.5, "A up e7"), (1.6, "A down e5"),
    # first illegal move: the bishop from f1 to f4, put back
    (6.0, "A up f1"), (6.1, "A down f4"),
    (8.0, "A up f4"), (8.1, "A down f1"),
    (13.5, "A up g1"), (13.6, "A down f3"),
    (14.5, "A up g8"), (14.6, "A down f6"),
    # second illegal move: the pawn from d2 to d5, put back
    (18.0, "A up d2"), (18.1, "A down d5"),
    (20.0, "A up d5"), (20.1, "A down d2"),
    (23.0, "A up d2"), (23.1, "A down d4"),
    (24.0, "A up b8"), (24.1, "A down a6"),
]
GAME += [(2.0 * k, "A button time") for k in range(1, 17)]  # every 2 s up to 32 s
GAME.sort(key=lambda e: e[0])
END_S = 36.0


class Ear(threading.Thread):
    """Drains the pipe at the speed of speech: by time t since the first sample it has
    read at most (t * RATE) samples; when the pipe is empty the time passes as silence.
    Keeps each 5 ms frame's loudness and the time it was heard."""

    def __init__(self, fd):
        super().__init__(daemon=True)
        self.fd = fd
        self.frames = []  # (time heard, RMS)
        self.chunks = []  # (time heard, raw samples)
        self.done = False
        self.pending = b""

    def run(self):
        clock = None  # (time, samples read since) of the stream's current stretch
        while not self.done:
            now = time.monotonic()
            allowed = 4096 if clock is None else \
                int((now - clock[0]) * RATE - clock[1]) * 2
            if allowed >= 2:
                try:
                    data = os.read(self.fd, min(allowed, 4096))
                except BlockingIOError:
                    data = b""
                if data:
                    if clock is None:
                        clock = (now, 0)
                    start = clock[0] + clock[1] / RATE
                    self.take(start, data)
                    clock = (clock[0], clock[1] + len(data) // 2)
                elif clock is not None and now - (clock[0] + clock[1] / RATE) > 0.002:
                    clock = None  # ran dry: silence until the next sample
            time.sleep(0.001)

    def take(self, start, data):
        self.chunks.append((start, bytes(data)))
        start -= len(self.pending) / 2 / RATE  # the part of a frame kept from before
        data = self.pending + data
        whole = len(data) // (2 * FRAME) * 2 * FRAME
        self.pending = data[whole:]
        for i in range(0, whole, 2 * FRAME):
            chunk = memoryview(data)[i:i + 2 * FRAME].cast("h")
            rms = math.sqrt(sum(s * s for s in chunk) / FRAME)
            self.frames.append((start + (i // 2) / RATE, rms))


def program_speech(text):
    """The espeak-ng program's speech of `text` (160 wpm, English): its loudness frames from
    its first loud frame to its last, and its samples from that first loud frame."""
    wav = subprocess.run(["espeak-ng", "-v", ENGLISH_VOICE, "-s", "160", "--stdout", text],
                         capture_output=True, check=True).stdout[44:]
    samples = memoryview(wav[:len(wav) // 2 * 2]).cast("h")
    frames = [math.sqrt(sum(s * s for s in samples[i:i + FRAME]) / FRAME)
              for i in range(0, len(samples) - FRAME, FRAME)]
    loud = [i for i, r in enumerate(frames) if r > LOUD]
    return frames[loud[0]:loud[-1] + 1], list(samples[loud[0] * FRAME:])


def raw_grid(chunks, t0):
    """The samples heard, on a grid of samples from t0 (0 where nothing was played)."""
    end = max((int(round((t - t0) * RATE)) + len(d) // 2 for t, d in chunks), default=0)
    g = [0] * max(end, 0)
    for t, d in chunks:
        at = int(round((t - t0) * RATE))
        for i, v in enumerate(memoryview(d[:len(d) // 2 * 2]).cast("h")):
            if 0 <= at + i < len(g):
                g[at + i] = v
    return g


def waveform_match(raw, samples, k):
    """How well the waveform of `samples` (its first 50 ms, every other sample) matches
    what was heard near grid frame k (within 10 ms): a phrase's own waveform matches
    itself, give or take a few units, and no other phrase's."""
    n, span = 1100, 220
    tpl = samples[:n:2]
    tn = math.sqrt(sum(x * x for x in tpl)) or 1.0
    best = -1.0
    for s0 in range(k * FRAME - span, k * FRAME + span):
        if s0 < 0 or s0 + n > len(raw):
            continue
        w = raw[s0:s0 + n:2]
        wn = math.sqrt(sum(x * x for x in w)) or 1.0
        best = max(best, sum(a * b for a, b in zip(tpl, w)) / (tn * wn))
    return best


def grid(frames, t0):
    """What was heard on a 5 ms grid from t0: RMS, 0 where nothing was played."""
    g = {}
    for t, r in frames:
        g[int(round((t - t0) / FRAME_S))] = r
    n = max(g) + 1 if g else 0
    return [g.get(k, 0.0) for k in range(n)]


def find(heard, raw, template, samples, lo, hi):
    """The grid position in [lo, hi) where the phrase was heard: the places where the
    whole `template` matches the heard loudness best (normalised correlation of the two
    shapes), the one of them where its waveform matches too; and how well."""
    n = len(template)
    tm = sum(template) / n
    td = [x - tm for x in template]
    tn = math.sqrt(sum(x * x for x in td)) or 1.0
    scores = []
    for k in range(max(lo, 0), min(hi, len(heard) - n)):
        if heard[k] <= LOUD:
            continue  # the phrase begins loud
        w = heard[k:k + n]
        wm = sum(w) / n
        wn = math.sqrt(sum((b - wm) ** 2 for b in w)) or 1.0
        scores.append((sum(a * (b - wm) for a, b in zip(td, w)) / (tn * wn), k))
    # The first place, in time, whose loudness matches the whole phrase and whose waveform
    # is the phrase's own: the moment it was heard. (Ordered by loudness alone, a later
    # phrase of the same first words, "Knight Felix six" after "Knight Felix three", can
    # come first: their waveforms' first 50 ms are the same.)
    tried = []
    for c, k in sorted(scores, key=lambda s: s[1]):
        if c < 0.5 or any(abs(k - t) < 8 for t in tried):
            continue
        tried.append(k)
        w = waveform_match(raw, samples, k)
        if w >= 0.9:
            return k, w
    # None as good: the best of the places the loudness matches best, for the report.
    best, at = -1.0, None
    for c, k in sorted(scores, reverse=True)[:6]:
        if c < 0.5:
            break
        w = waveform_match(raw, samples, k)
        if w > best:
            best, at = w, k
    return at, best


def flag_played_out(log, ear, written, timeout=60.0):
    """Waits until the flag is logged and speech has been heard after it and ended (a
    second of silence): on a busy machine the game runs late, and stopping the daemon at a
    fixed time would cut the phrase being measured."""
    deadline = time.monotonic() + timeout

    def flag_time():
        """The flag's time on this clock, once it and every input are logged."""
        records = []
        with open(log) as f:
            for line in f:
                try:
                    records.append(json.loads(line))
                except ValueError:  # a line being written
                    pass
        inputs = [r for r in records if r.get("type") in ("hole", "button")]
        flag = next((r for r in records if r.get("type") == "game-over"), None)
        if flag is None or len(inputs) != len(written):
            return None
        origin = max(w - r["t"] / 1000 for w, r in zip(written, inputs))
        return origin + flag["t"] / 1000

    while time.monotonic() < deadline:
        at = flag_time()
        loud = next((t for t, rms in reversed(list(ear.frames)) if rms > LOUD), None)
        if at is not None and loud is not None and loud > at and time.monotonic() - loud > 1.0:
            return
        time.sleep(0.1)


def ahead_of_the_rest():
    """What is measured is the daemon's speech, not the machine's other work: where the
    system allows it (root, as CI runs), this process (the ear) and tactiled run ahead of
    a build or a test suite beside them, as tactiled on a Pi has its CPU to itself."""
    try:
        os.nice(-10)
    except OSError:
        pass


def main():
    ahead_of_the_rest()
    with tempfile.TemporaryDirectory() as work:
        pipe = os.path.join(work, "speech.fifo")
        os.mkfifo(pipe)
        # Opened first, without blocking: libasound opens the other end at the start.
        ear_fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.fcntl(ear_fd, fcntl.F_SETPIPE_SZ, 4096)
        with open(os.path.join(work, "asound.conf"), "w") as f:
            f.write(f'pcm.board_a {{ type file slave.pcm "silent" file "{pipe}" '
                    'format "raw" }\npcm.silent { type null }\n')
        ear = Ear(ear_fd)
        ear.start()
        script = os.path.join(work, "board.fifo")
        os.mkfifo(script)
        log = os.path.join(work, "game.jsonl")
        out = open(os.path.join(work, "tactiled.out"), "wb")
        env = dict(os.environ, ALSA_CONFIG_PATH=os.path.join(work, "asound.conf"))
        tactiled = subprocess.Popen(
            [tactiled_bin, "--board", "script", "--script", script, "--log", log,
             "--pgn", os.path.join(work, "game.pgn"), "--control", "off", "--speech", "on",
             "--speech-device", "board_a", "--auto-resume", "off", "--language", "en",
             "--time-control", "30+0", "--time-warnings", "0:20,0:15,0:10",
             "--completion", "auto", "--settle-ms", "200"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env,
            preexec_fn=ahead_of_the_rest)
        board = open(script, "w")
        written = []  # the time each line was written
        try:
            deadline = time.monotonic() + 20
            while not (os.path.exists(log) and os.path.getsize(log) > 0):
                assert time.monotonic() < deadline, "tactiled did not start its log"
                assert tactiled.poll() is None, "tactiled ended"
                time.sleep(0.05)
            time.sleep(0.5)
            t0 = time.monotonic()
            for at, line in GAME:
                time.sleep(max(0.0, t0 + at - time.monotonic()))
                # Stamped 0: handled at once, stamped with the time it came.
                board.write(f"0 {line}\n")
                board.flush()
                written.append(time.monotonic())
            time.sleep(max(0.0, t0 + END_S - time.monotonic()))
            flag_played_out(log, ear, written)
        finally:
            stop(tactiled, 10)
            board.close()
            out.close()
        time.sleep(0.3)
        ear.done = True
        ear.join()
        os.close(ear_fd)
        with open(log) as f:
            records = [json.loads(line) for line in f]
        if os.environ.get("SPEECH_LATENCY_LOG"):  # for whoever studies a run
            with open(os.environ["SPEECH_LATENCY_LOG"], "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
            with open(os.environ["SPEECH_LATENCY_LOG"] + ".heard", "w") as f:
                f.writelines(f"{t:.4f} {r:.0f}\n" for t, r in ear.frames)
            with open(os.environ["SPEECH_LATENCY_LOG"] + ".raw", "w") as f:
                f.writelines(f"{t:.6f} {d.hex()}\n" for t, d in ear.chunks)
        ok = report(records, written, ear)
        if not ok:
            print_tail(os.path.join(work, "tactiled.out"), 3000)
            sys.exit(1)


def report(records, written, ear):
    # The daemon's time 0 on this clock: each input is logged at the time it came, at
    # or after it was written.
    inputs = [r for r in records if r["type"] in ("hole", "button")]
    assert len(inputs) == len(written), (len(inputs), len(written))
    origin = max(w - r["t"] / 1000 for w, r in zip(written, inputs))
    heard = grid(ear.frames, origin)
    raw = raw_grid(ear.chunks, origin)
    if os.environ.get("SPEECH_LATENCY_LOG"):
        with open(os.environ["SPEECH_LATENCY_LOG"] + ".origin", "w") as f:
            f.write(f"{origin:.4f}\n")
    # Each move made and the flag, with the phrase that announced it (its speak record).
    events = []
    for i, r in enumerate(records):
        kind = r.get("kind") if r["type"] == "moment" else None
        if kind == "made" or r["type"] == "game-over":
            text = next((x["text"] for x in records[i + 1:] if x["type"] == "speak"), None)
            if r["type"] == "game-over":
                text = next((x["text"] for x in reversed(records[:i]) if x["type"] == "speak"),
                            None)
            events.append(("flag" if r["type"] == "game-over" else "move", r["t"], text))
    cuts = [r for r in records if r["type"] == "said" and r.get("cut")]
    ok = True
    delays, older = [], []
    flag_delay = None
    print(f"{'event':6} {'at':>8}  {'heard after':>11}  {'older speech':>12}  phrase")
    for kind, t, text in events:
        template, samples = program_speech(text)
        k0 = int(round(t / 1000 / FRAME_S))
        at, score = find(heard, raw, template, samples, k0 - 20, k0 + int(15 / FRAME_S))
        if at is None or score < 0.6:
            print(f"{kind:6} {t / 1000:8.3f}  {'not heard':>11}  {'':>12}  {text}")
            ok = False
            continue
        delay = (at - k0) * FRAME_S * 1000
        loud_before = [k for k in range(k0, at) if heard[k] > LOUD]
        old = (max(loud_before) + 1 - k0) * FRAME_S * 1000 if loud_before else 0.0
        print(f"{kind:6} {t / 1000:8.3f}  {delay:8.0f} ms  {old:9.0f} ms  {text} "
              f"(match {score:.2f})")
        if kind == "flag":
            flag_delay = delay
        else:
            delays.append(delay)
            older.append(old)
    print(f"phrases cut or dropped (the log's said records with cut): {len(cuts)}")
    for c in cuts:
        print(f"  {c['t'] / 1000:8.3f}  {c['rank']:8} {c['played_ms']:5}/{c['length_ms']:5} ms"
              f"  {c['text']}")
    if delays:
        print(f"moves heard after: median {statistics.median(delays):.0f} ms, "
              f"max {max(delays):.0f} ms (goal 150 ms)")
        print(f"older speech after a move: median {statistics.median(older):.0f} ms, "
              f"max {max(older):.0f} ms (goal 100 ms)")
    if flag_delay is not None:
        print(f"the flag heard after {flag_delay:.0f} ms (goal 300 ms)")
    moves = sum(1 for e in events if e[0] == "move")
    if moves != 6 or flag_delay is None:
        print(f"expected 6 moves and the flag, found {moves} moves, flag {flag_delay}")
        ok = False
    if not bench:
        for d in delays + ([flag_delay] if flag_delay is not None else []):
            if d > 1000:
                print(f"FAIL: a phrase heard {d:.0f} ms late (bound 1000 ms)")
                ok = False
    if ok:
        print("PASS" if not bench else "done")
    return ok


main()
