// SPDX-License-Identifier: GPL-3.0-or-later
// chessops (lichess's own rules library, from npm into the project's node prefix by
// script/setup) reads each push body as lila does, for the fake lichess of
// tests/hall/fake_lichess.py. One request a line on stdin: {"pgn": BODY}; one answer a line
// on stdout: {"games": [{"tags": {...}, "moves": N, "clocks": N} | {"tags": {...},
// "error": "..."}]}: the body with "\r" removed, split at a blank line before a tag
// (lila's split), each part one game whose every SAN is legal on its position ("clocks":
// how many moves carry a [%clk] comment).
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const prefix = process.env.TACTILED_NODE_PREFIX || "/opt/tactiled/node";
const load = (name) =>
  import(pathToFileURL(path.join(prefix, "node_modules/chessops/dist/esm", name + ".js")).href);
const { parsePgn, startingPosition } = await load("pgn");
const { parseSan } = await load("san");

function readGame(text) {
  const games = parsePgn(text);
  if (games.length !== 1) return { tags: {}, error: `${games.length} games in one part` };
  const game = games[0];
  const tags = Object.fromEntries(game.headers);
  const start = startingPosition(game.headers);
  if (start.isErr) return { tags, error: "no starting position: " + start.error };
  const pos = start.value;
  let moves = 0, clocks = 0;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) return { tags, error: `move ${moves + 1} ${node.san} is not legal` };
    pos.play(move);
    moves++;
    if ((node.comments || []).some((c) => /\[%clk \d+:\d\d:\d\d(\.\d+)?\]/.test(c))) clocks++;
  }
  return { tags, moves, clocks };
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const { pgn } = JSON.parse(line);
  const parts = pgn.replace(/\r/g, "").split(/\n\n(?=\[)/).filter((p) => p.trim() !== "");
  process.stdout.write(JSON.stringify({ games: parts.map(readGame) }) + "\n");
}
