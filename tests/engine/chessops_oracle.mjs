// SPDX-License-Identifier: GPL-3.0-or-later
// chessops (lichess's rules library, from npm into the project's node prefix by
// script/setup) as an independent judge for tests/engine/engine_live_test.py. One request a
// line on stdin, one JSON answer a line on stdout:
//   legal FEN       -> {"moves": ["e2e4", ...]}  legal moves, UCI (promotions with their
//                      piece; castling left out: a player need not castle)
//   play FEN UCI    -> {"fen": FEN}  the position after the move
//   pgn PATH        -> {"tags": {...}, "moves": ["e2e4", ...], "fen": FINAL} or
//                      {"error": "..."}: the file read by chessops' PGN parser, every SAN
//                      resolved on its position (an illegal or ambiguous move is an error)
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

// chessops is an ES module (its CommonJS build does not load under its own package type):
// imported by file from the prefix, where npm put it.
const prefix = process.env.TACTILED_NODE_PREFIX || "/opt/tactiled/node";
const load = (name) =>
  import(pathToFileURL(path.join(prefix, "node_modules/chessops/dist/esm", name + ".js")).href);
const { parsePgn, startingPosition } = await load("pgn");
const { parseSan } = await load("san");
const { parseFen, makeFen } = await load("fen");
const { Chess } = await load("chess");
const { makeUci, parseUci, squareRank } = await load("util");

function legal(fen) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const moves = [];
  // allDests() takes the position's own context (its checkers and pins); an options
  // object in its place is read as a context with no checkers, which lists moves that leave
  // the king in check.
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pos.board.get(to)?.color === piece.color) continue; // castling, as king-takes-rook
      const rank = squareRank(to);
      if (piece.role === "pawn" && (rank === 0 || rank === 7)) {
        for (const role of ["queen", "rook", "bishop", "knight"])
          moves.push(makeUci({ from, to, promotion: role }));
      } else {
        moves.push(makeUci({ from, to }));
      }
    }
  }
  return { moves };
}

function play(fen, uci) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const move = parseUci(uci);
  if (!move || !pos.isLegal(move)) return { error: `${uci} is not legal in ${fen}` };
  pos.play(move);
  return { fen: makeFen(pos.toSetup()) };
}

function readPgn(path) {
  const games = parsePgn(fs.readFileSync(path, "utf8"));
  if (games.length !== 1) return { error: `${games.length} games in ${path}` };
  const game = games[0];
  const tags = Object.fromEntries(game.headers);
  const start = startingPosition(game.headers);
  if (start.isErr) return { error: "start: " + start.error.message };
  const pos = start.value;
  const moves = [];
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) return { error: `move ${moves.length + 1} ${node.san} is not legal`, tags, moves };
    // UCI as the log writes it: castling as the king's two squares.
    let uci = makeUci(move);
    const piece = pos.board.get(move.from);
    if (piece && piece.role === "king" && pos.board.get(move.to)?.role === "rook" &&
        pos.board.get(move.to).color === piece.color)
      uci = makeUci({ from: move.from, to: move.to > move.from ? move.from + 2 : move.from - 2 });
    moves.push(uci);
    pos.play(move);
  }
  return { tags, moves, fen: makeFen(pos.toSetup()), result: tags.Result };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [word, ...rest] = line.trim().split(" ");
  let answer;
  try {
    if (word === "legal") answer = legal(rest.join(" "));
    else if (word === "play") answer = play(rest.slice(0, -1).join(" "), rest[rest.length - 1]);
    else if (word === "pgn") answer = readPgn(rest.join(" "));
    else answer = { error: "unknown request " + word };
  } catch (e) {
    answer = { error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
