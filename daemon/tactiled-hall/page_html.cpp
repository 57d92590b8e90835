// Every table as a board diagram with both clocks, the last move and the alarms. For a
// screen reader each board is a real table (rows are ranks, columns files, every square's
// cell names its square and piece), moves and alarms are read out from an aria-live
// region, and the type is large; on a phone the boards stack in one column.
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
body { font-family: "DejaVu Sans", sans-serif; font-size: 1.25rem; margin: 0.5rem; background: #fff; color: #000; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.6rem; }
#tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); gap: 1rem; }
section.table { border: 3px solid #333; border-radius: 0.4rem; padding: 0.5rem; }
section.table.alarm { border-color: #b00000; background: #fff0f0; }
h2 { font-size: 1.4rem; margin: 0 0 0.3rem; }
table.board { border-collapse: collapse; margin: 0.3rem 0; }
table.board td { width: 2.1rem; height: 2.1rem; text-align: center; font-size: 1.7rem; line-height: 1; padding: 0; }
table.board th { font-size: 0.9rem; font-weight: normal; padding: 0 0.2rem; }
td.light { background: #f0d9b5; } td.dark { background: #b58863; }
.clocks { display: flex; gap: 1rem; font-size: 1.5rem; font-variant-numeric: tabular-nums; }
.clock.running { font-weight: bold; text-decoration: underline; }
.alarms { color: #b00000; font-weight: bold; min-height: 1.5rem; }
.flags { color: #6b4e00; font-size: 1rem; }
.sr { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
</style>
</head>
<body>
<h1 id="title">Hall</h1>
<p id="connection">Connecting...</p>
<div id="announce" class="sr" aria-live="assertive" aria-atomic="false"></div>
<main id="tables"></main>
<script>
"use strict";
const names = { K: "white king", Q: "white queen", R: "white rook", B: "white bishop", N: "white knight", P: "white pawn",
  k: "black king", q: "black queen", r: "black rook", b: "black bishop", n: "black knight", p: "black pawn" };
const glyphs = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const files = "abcdefgh";
let tables = [];
let hallOffset = 0;  // the hall's clock less this device's: read_at is on the hall's clock
// Per table, keyed by its name in a Map (never an object's keys: a table named
// "constructor" or "__proto__" is a table like any other).
const seen = new Map();  // per table: last move and alarms already announced

function clockText(ms) {
  if (ms === null || ms === undefined) return "no clock";
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(sec).padStart(2, "0");
}
function clockNow(t, side) {
  const ms = t[side + "_ms"];
  if (ms === null || ms === undefined) return ms;
  if (t.running !== side || !t.read_at) return ms;
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
// Only a table whose data changed is drawn anew: with a hundred tables a move redraws one
// section, and a screen reader's place in the other tables is left where it was.
const drawn = new Map();  // per table: the data it was drawn from, and its section
function section(t) {
  const sec = document.createElement("section");
  sec.className = "table" + (t.alarms.length ? " alarm" : "");
  sec.id = "table-" + t.table;
  sec.setAttribute("aria-labelledby", "head-" + t.table);
  const h2 = document.createElement("h2");
  h2.id = "head-" + t.table;
  h2.textContent = "Board " + t.board + ": " + (t.white || "?") + " - " + (t.black || "?") + (t.result !== "*" ? ", " + t.result : "");
  sec.appendChild(h2);
  const clocks = document.createElement("div");
  clocks.className = "clocks";
  for (const side of ["white", "black"]) {
    const c = document.createElement("span");
    c.className = "clock " + side + (t.running === side ? " running" : "");
    c.dataset.side = side;
    c.textContent = side[0].toUpperCase() + side.slice(1) + " " + clockText(clockNow(t, side));
    clocks.appendChild(c);
  }
  sec.appendChild(clocks);
  const last = document.createElement("p");
  last.className = "last-move";
  last.textContent = t.last_move ? "Last move: " + t.last_move.san + " by " + t.last_move.by : "No move yet";
  sec.appendChild(last);
  const alarms = document.createElement("p");
  alarms.className = "alarms";
  alarms.setAttribute("role", "status");
  alarms.textContent = t.alarms.length ? "Alarm: " + t.alarms.join(", ") : "";
  sec.appendChild(alarms);
  if (t.flags.length) {
    const flags = document.createElement("p");
    flags.className = "flags";
    flags.textContent = "Records: " + t.flags.join("; ");
    sec.appendChild(flags);
  }
  sec.appendChild(boardTable(t));
  return sec;
}
function render() {
  const main = document.getElementById("tables");
  const keep = new Set();
  let at = main.firstChild;  // where the next table's section belongs
  for (const t of tables) {
    keep.add(t.table);
    const data = JSON.stringify(t);
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
    const alarmText = t.alarms.join(", ");
    if (before) {
      if (moveText && moveText + t.moves !== before.move) announce("Board " + t.board + ": " + moveText);
      if (alarmText && alarmText !== before.alarms) announce("Board " + t.board + " alarm: " + alarmText);
    }
    seen.set(t.table, { move: moveText + t.moves, alarms: alarmText });
  }
  for (const [name, d] of drawn)
    if (!keep.has(name)) { d.sec.remove(); drawn.delete(name); seen.delete(name); }
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
  document.getElementById("title").textContent = "Hall " + hall.hall + (hall.round ? ", round " + hall.round : "");
  tables = hall.tables;
  render();
};
setInterval(tick, 250);
</script>
</body>
</html>
)HTML";
  return html;
}

}  // namespace tactile::hall
