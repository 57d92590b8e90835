// SPDX-License-Identifier: GPL-3.0-or-later
// Every table as a board diagram with both clocks, the last move and the alarms. For a
// screen reader each board is a real table (rows are ranks, columns files, every square's
// cell names its square and piece), moves and alarms are read out from an aria-live
// region, and the type is large; on a phone the boards stack in one column. Every part of
// the page is in a landmark (the banner, the alarm summary's navigation, the main tables),
// and each alarm's colours keep 7:1 contrast (tests/hall/hall_page_axe_test.py: axe-core).
#include "daemon/tactiled-hall/page_html.h"

namespace tactile::hall {

const std::string& page_html() {
  static const std::string html = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hall - tactiled</title>
<style>
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 1.25rem; margin: 0.5rem; background: #fff; color: #000; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.6rem; }
a { color: #0645ad; }
#alarm-summary { border: 3px solid #b00000; background: #fff0f0; padding: 0.3rem 0.6rem; margin: 0 0 0.6rem; }
#alarm-summary[hidden] { display: none; }
#alarm-summary h2 { font-size: 1.3rem; }
#alarm-summary ul { margin: 0.2rem 0; padding-left: 1.2rem; }
#tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(20rem, 100%), 1fr)); gap: 1rem; }
section.table { border: 3px solid #333; border-radius: 0.4rem; padding: 0.5rem; min-width: 0; }
section.table.alarm { border-color: #b00000; background: #fff0f0; }
section.table.offline { border-style: dashed; background: #f2f2f2; }
h2 { font-size: 1.4rem; margin: 0 0 0.3rem; }
table.board { border-collapse: collapse; margin: 0.3rem 0; }
table.board td { width: min(2.1rem, 9vw); height: min(2.1rem, 9vw); text-align: center; font-size: min(1.7rem, 7vw); line-height: 1; padding: 0; }
table.board th { font-size: 0.9rem; font-weight: normal; padding: 0 0.2rem; }
td.light { background: #f0d9b5; } td.dark { background: #b58863; }
.clocks { display: flex; flex-wrap: wrap; gap: 0 1rem; font-size: 1.5rem; font-variant-numeric: tabular-nums; }
.clock, .result { white-space: nowrap; }
.clock.running { font-weight: bold; text-decoration: underline; }
.alarms { min-height: 1.5rem; margin: 0.2rem 0; padding: 0; list-style: none; }
.alarms li { font-weight: bold; padding: 0.1rem 0.3rem; margin: 0.1rem 0; border-left-width: 0.4rem; border-left-style: solid; }
.alarm-flag { color: #7a0000; border-color: #b00000; background: #ffd6d6; }
.alarm-discrepancy { color: #6b2f00; border-color: #d35400; background: #ffe8d0; }
.alarm-board-lost, .alarm-fault, .alarm-daemon-stopped { color: #4a0060; border-color: #7b1fa2; background: #f3e0f7; }
.alarm-board-suspect, .alarm-self-test-failed, .alarm-self-test-old { color: #553800; border-color: #a86b00; background: #fff3cc; }
.alarm-paused, .alarm-adjourned { color: #003b6b; border-color: #1565c0; background: #e0efff; }
.alarm-offline { color: #333; border-color: #555; background: #e6e6e6; }
.flags { color: #5c4300; font-size: 1rem; }
.training { color: #fff; background: #1b5e20; border-radius: 0.3rem; padding: 0 0.4rem; white-space: nowrap; }
.files { font-size: 1rem; }
.notice { color: #7a0000; background: #ffd6d6; font-weight: bold; padding: 0.3rem; }
.sr { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
</style>
</head>
<body>
<header>
<h1 id="title">Hall</h1>
<p id="connection" role="status">Connecting...</p>
<p id="notice" class="notice" role="alert" hidden></p>
<p id="lichess-alarm" class="notice" role="alert" hidden></p>
<p class="files"><a href="live.pgn">live.pgn</a> (every game of the round) - <a href="round.json">round.json</a></p>
</header>
<nav id="alarm-summary" aria-labelledby="alarm-summary-head" hidden>
<h2 id="alarm-summary-head">Alarms</h2>
<ul id="alarm-list"></ul>
</nav>
<div id="announce" class="sr" aria-live="assertive" aria-atomic="false"></div>
<main id="tables"></main>
<script>
"use strict";
const names = { K: "white king", Q: "white queen", R: "white rook", B: "white bishop", N: "white knight", P: "white pawn",
  k: "black king", q: "black queen", r: "black rook", b: "black bishop", n: "black knight", p: "black pawn" };
const glyphs = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const pieceWords = { K: "King", Q: "Queen", R: "Rook", B: "Bishop", N: "Knight" };
const files = "abcdefgh";
let tables = [];
let hallOffset = 0;  // the hall's clock less this device's: read_at is on the hall's clock
// Per table, keyed by its name in a Map (never an object's keys: a table named
// "constructor" or "__proto__" is a table like any other).
const seen = new Map();  // per table: last move and alarms already announced

// A move as a listener hears it: "Nxe4+" is "Knight takes e4, check".
function moveWords(san) {
  if (!san) return "";
  let m = san.replace(/[!?]+$/, "");
  let tail = "";
  if (m.endsWith("#")) { tail = ", checkmate"; m = m.slice(0, -1); }
  else if (m.endsWith("+")) { tail = ", check"; m = m.slice(0, -1); }
  if (m === "O-O" || m === "0-0") return "castles kingside" + tail;
  if (m === "O-O-O" || m === "0-0-0") return "castles queenside" + tail;
  let promo = "";
  const p = m.match(/=?([QRBN])$/);
  if (p && /[a-h][18]=?[QRBN]$/.test(m)) { promo = " promotes to " + pieceWords[p[1]].toLowerCase(); m = m.replace(/=?[QRBN]$/, ""); }
  const target = m.slice(-2);
  let rest = m.slice(0, -2);
  const takes = rest.endsWith("x");
  if (takes) rest = rest.slice(0, -1);
  let who = "";
  if (rest && pieceWords[rest[0]]) { who = pieceWords[rest[0]] + (rest.length > 1 ? " " + rest.slice(1) : ""); }
  else if (rest) { who = rest; }  // a pawn's file: "exd5" is "e takes d5"
  return (who ? who + " " : "") + (takes ? "takes " : (who ? "to " : "")) + target + promo + tail;
}
// Each alarm in words, by kind; a discrepancy names its board and squares.
function alarmWords(t, kind) {
  switch (kind) {
    case "flag": return "Flag fallen";
    case "discrepancy": {
      const d = (t.discrepancies || []).map((x) => "board " + x.board + (x.squares.length ? " at " + x.squares.join(", ") : ""));
      return "Discrepancy" + (d.length ? " on " + d.join("; ") : "") + ": the pegs differ from the game";
    }
    case "board-lost": return "Board connection lost";
    case "fault": return "Fault on the table's unit";
    case "paused": return "Clocks paused";
    case "adjourned": return "Game adjourned";
    case "offline": return "Table offline" + (t.offline_since ? " since " + timeText(t.offline_since) : "");
    case "board-suspect": return "Board suspect: " + healthList(t, (h) => h.suspect);
    case "self-test-failed": return "Self-test failed: " + healthList(t, (h) => h.self_test && h.self_test.failed);
    case "self-test-old": return "Self-test older than the round: " + (t.self_test_old || []).map((x) =>
        "board " + x.board + (x.time ? " (last " + x.time.replace("T", " ").replace("Z", " UTC") + ")" : " (none)")).join("; ");
    case "daemon-stopped": return "tactiled silent since " + (t.daemon_last_seen ? timeText(t.daemon_last_seen) : "?");
    default: return String(kind);
  }
}
// "board A holes a1 e4" for each board whose health lists holes under `pick`.
function healthList(t, pick) {
  return Object.entries(t.health || {}).map(([b, h]) => [b, (h && pick(h)) || []])
      .filter(([, holes]) => holes.length).map(([b, holes]) => "board " + b + " holes " + holes.join(" "))
      .join("; ");
}
function timeText(ms) {
  const d = new Date(ms);
  return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
}
function clockText(ms) {
  if (ms === null || ms === undefined) return "no clock";
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(sec).padStart(2, "0");
}
function clockNow(t, side) {
  const ms = t[side + "_ms"];
  if (ms === null || ms === undefined) return ms;
  // An offline table's clock is not run on: nobody knows it still runs.
  if (t.running !== side || !t.read_at || t.status === "offline") return ms;
  return ms - (Date.now() + hallOffset - t.read_at);
}
function announce(text) {
  const p = document.createElement("p");
  p.textContent = text;
  const box = document.getElementById("announce");
  box.appendChild(p);
  while (box.childNodes.length > 20) box.removeChild(box.firstChild);
}
function boardTable(t) {
  const rows = t.fen.split(" ")[0].split("/");
  const table = document.createElement("table");
  table.className = "board";
  const caption = document.createElement("caption");
  caption.className = "sr";
  caption.textContent = "Board " + t.board + " position, " + t.turn + " to move";
  table.appendChild(caption);
  rows.forEach((row, r) => {
    const rank = 8 - r;
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row"; th.textContent = rank;
    tr.appendChild(th);
    let f = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        for (let i = 0; i < Number(ch); i++, f++) tr.appendChild(square(f, rank, null));
      } else { tr.appendChild(square(f, rank, ch)); f++; }
    }
    table.appendChild(tr);
  });
  const foot = document.createElement("tr");
  foot.appendChild(document.createElement("td"));
  for (const c of files) { const th = document.createElement("th"); th.scope = "col"; th.textContent = c; foot.appendChild(th); }
  table.appendChild(foot);
  return table;
}
function square(f, rank, piece) {
  const td = document.createElement("td");
  const name = files[f] + rank;
  td.className = (f + rank) % 2 === 0 ? "light" : "dark";  // a1 dark
  td.setAttribute("aria-label", name + " " + (piece ? names[piece] : "empty"));
  td.dataset.square = name;
  if (piece) { const s = document.createElement("span"); s.setAttribute("aria-hidden", "true"); s.textContent = glyphs[piece]; td.appendChild(s); }
  return td;
}
function link(href, text) {
  const a = document.createElement("a");
  a.href = href; a.textContent = text;
  return a;
}
// Only a table whose content changed is drawn anew (the clocks tick in place): with a
// hundred tables a move redraws one section, and a screen reader's place in the other
// tables is left where it was.
const drawn = new Map();  // per table: the content it was drawn from, and its section
function content(t) {
  return JSON.stringify([t.board, t.white, t.black, t.training, t.fen, t.turn, t.last_move, t.alarms, t.discrepancies,
    t.flags, t.result, t.status, t.offline_since, t.running, t.file, t.games, t.reloading, t.lichess,
    t.white_ms === null || t.white_ms === undefined, t.black_ms === null || t.black_ms === undefined]);
}
function section(t) {
  const sec = document.createElement("section");
  sec.className = "table" + (t.alarms.length ? " alarm" : "") + (t.status === "offline" ? " offline" : "");
  sec.id = "table-" + t.table;
  sec.setAttribute("aria-labelledby", "head-" + t.table);
  const h2 = document.createElement("h2");
  h2.id = "head-" + t.table;
  h2.textContent = "Board " + t.board + ": " + (t.white || "?") + " - " + (t.black || "?");
  if (t.result !== "*") {  // "0-1" kept on one line
    h2.appendChild(document.createTextNode(", "));
    const result = document.createElement("span");
    result.className = "result";
    result.textContent = t.result;
    h2.appendChild(result);
  }
  if (t.training) {  // a board that trains against an engine: no tournament game
    h2.appendChild(document.createTextNode(" "));
    const mark = document.createElement("span");
    mark.className = "training";
    mark.textContent = "Training";
    h2.appendChild(mark);
  }
  sec.appendChild(h2);
  const clocks = document.createElement("div");
  clocks.className = "clocks";
  for (const side of ["white", "black"]) {
    const c = document.createElement("span");
    c.className = "clock " + side + (t.running === side && t.status !== "offline" ? " running" : "");
    c.dataset.side = side;
    c.textContent = side[0].toUpperCase() + side.slice(1) + " " + clockText(clockNow(t, side));
    clocks.appendChild(c);
  }
  sec.appendChild(clocks);
  const last = document.createElement("p");
  last.className = "last-move";
  last.textContent = t.last_move ? "Last move: " + t.last_move.san + " (" + moveWords(t.last_move.san) + ") by " + t.last_move.by : "No move yet";
  sec.appendChild(last);
  const alarms = document.createElement("ul");
  alarms.className = "alarms";
  alarms.setAttribute("aria-label", "Alarms");
  for (const kind of t.alarms) {
    const li = document.createElement("li");
    li.className = "alarm-" + String(kind).replace(/[^a-z-]/g, "");
    li.textContent = alarmWords(t, kind);
    alarms.appendChild(li);
  }
  sec.appendChild(alarms);
  if (t.reloading) {
    const reloading = document.createElement("p");
    reloading.className = "flags";
    reloading.textContent = "Reloading its records after the hall's restart";
    sec.appendChild(reloading);
  }
  // What lichess said of this game at the last push (lichess-push): moves taken, or why not.
  if (t.lichess) {
    const said = document.createElement("p");
    said.className = t.lichess.error ? "flags lichess-error" : "flags";
    said.textContent = t.lichess.error ? "lichess refused this game: " + t.lichess.error
      : "On lichess: " + t.lichess.moves + (t.lichess.moves === 1 ? " move" : " moves");
    sec.appendChild(said);
  }
  if (t.flags.length) {
    const flags = document.createElement("p");
    flags.className = "flags";
    flags.textContent = "Records: " + t.flags.join("; ");
    sec.appendChild(flags);
  }
  sec.appendChild(boardTable(t));
  const pgns = document.createElement("p");
  pgns.className = "files";
  pgns.appendChild(link(t.file, "PGN of this game"));
  const earlier = (t.games || []).slice(0, -1);
  if (earlier.length) {
    pgns.appendChild(document.createTextNode("; earlier games: "));
    earlier.forEach((g, i) => {
      if (i) pgns.appendChild(document.createTextNode(", "));
      pgns.appendChild(link(g.file, "round " + g.round + ", " + g.white + " - " + g.black + " " + g.result));
    });
  }
  sec.appendChild(pgns);
  return sec;
}
function summary() {
  const list = document.getElementById("alarm-list");
  list.replaceChildren();
  let count = 0;
  for (const t of tables) {
    if (!t.alarms.length) continue;
    count++;
    const li = document.createElement("li");
    li.appendChild(link("#table-" + t.table, "Board " + t.board));
    li.appendChild(document.createTextNode(": " + t.alarms.map((k) => alarmWords(t, k)).join("; ")));
    list.appendChild(li);
  }
  document.getElementById("alarm-summary").hidden = count === 0;
  return count;
}
function render() {
  const main = document.getElementById("tables");
  const keep = new Set();
  let at = main.firstChild;  // where the next table's section belongs
  for (const t of tables) {
    keep.add(t.table);
    const data = content(t);
    let d = drawn.get(t.table);
    if (!d || d.data !== data) {
      const sec = section(t);
      if (d) {
        if (at === d.sec) at = sec;
        d.sec.replaceWith(sec);
      }
      d = { data: data, sec: sec };
      drawn.set(t.table, d);
    }
    if (d.sec !== at) main.insertBefore(d.sec, at);
    at = d.sec.nextSibling;
    const before = seen.get(t.table);
    const moveText = t.last_move ? t.last_move.san : "";
    if (before) {
      if (moveText && moveText + t.moves !== before.move) announce("Board " + t.board + ": " + moveWords(moveText));
      for (const kind of t.alarms)
        if (!before.alarms.includes(kind)) announce("Board " + t.board + " alarm: " + kind + ". " + alarmWords(t, kind));
      for (const kind of before.alarms)
        if (!t.alarms.includes(kind)) announce("Board " + t.board + ": " + kind + " cleared");
    }
    seen.set(t.table, { move: moveText + t.moves, alarms: t.alarms.slice() });
  }
  for (const [name, d] of drawn)
    if (!keep.has(name)) { d.sec.remove(); drawn.delete(name); seen.delete(name); }
  return summary();
}
function tick() {
  for (const t of tables) {
    for (const side of ["white", "black"]) {
      const c = document.querySelector("#table-" + CSS.escape(t.table) + " .clock." + side);
      if (c) c.textContent = side[0].toUpperCase() + side.slice(1) + " " + clockText(clockNow(t, side));
    }
  }
}
const events = new EventSource("events");
events.onopen = () => { document.getElementById("connection").textContent = "Live"; };
events.onerror = () => { document.getElementById("connection").textContent = "Connection lost, reconnecting..."; };
events.addEventListener("time", (e) => { hallOffset = Number(e.data) - Date.now(); });
events.onmessage = (e) => {
  const hall = JSON.parse(e.data);
  const name = "Hall " + hall.hall + (hall.round ? ", round " + hall.round : "");
  document.getElementById("title").textContent = name;
  // The hall's own trouble (no table of its name heard), above every table.
  const notice = document.getElementById("notice");
  if ((notice.textContent || "") !== (hall.notice || "")) notice.textContent = hall.notice || "";
  notice.hidden = !hall.notice;
  // lichess refused the hall's pushes (the token, the round): its own words.
  const lichess = document.getElementById("lichess-alarm");
  const lichessWords = hall.lichess_alarm ? "lichess: " + hall.lichess_alarm : "";
  if ((lichess.textContent || "") !== lichessWords) lichess.textContent = lichessWords;
  lichess.hidden = !lichessWords;
  tables = hall.tables;
  const alarms = render();
  document.title = (alarms ? "(" + alarms + (alarms === 1 ? " alarm) " : " alarms) ") : "") + name + " - tactiled";
};
setInterval(tick, 250);
</script>
</body>
</html>
)HTML";
  return html;
}

}  // namespace tactile::hall
