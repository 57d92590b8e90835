// SPDX-License-Identifier: GPL-3.0-or-later
// What the player's own channel says (issue 21): low-time warnings, the record read back
// a move pair at a time, the board checked on request and the speech rate stepped.
// UTF-8; German in ASCII like the rest (for_speech restores the umlauts).
//
//   warning_phrase(60000, White)  "Weiss, eine Minute" / "White, one minute" /
//                                 "Белые, одна минута" (a board that hears both clocks)
//   warning_phrase(60000, {})     "Ihre Zeit: eine Minute" / "Your time: one minute" /
//                                 "Ваше время: одна минута" (the player's own clock)
//   pair_phrase(game, 11)         "Zug zwoelf: Weiss Springer Gustav drei, Schwarz Bauer
//                                 Eva fuenf" / "Move twelve: White Knight Gustav three,
//                                 Black Pawn Eva five" / "Ход двенадцать: белые Конь
//                                 Густав три, чёрные Пешка Ева пять"
//   check_phrase(...)             "Brett stimmt" / "Board agrees" / "Доска совпадает с
//                                 партией", or "Eva vier soll leer sein, David fuenf soll
//                                 besetzt sein und zwei weitere"
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/chess/pgn.h"
#include "core/chess/types.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"

namespace tactile::record {

// The warning that `threshold_ms` of a clock's time is left (duration_words): naming its
// `side` where the player hears both clocks (one board), else as his own time.
std::string warning_phrase(std::int64_t threshold_ms, std::optional<chess::Color> side,
                           Language lang);

// The number of move pairs in `game`: White's move and Black's answer (a game set up
// with Black to move begins with a pair of Black's move alone).
int pair_count(const chess::PgnGame& game);
// Pair `index` (0 = the first) with its move number, each move as announced (move_phrase).
std::string pair_phrase(const chess::PgnGame& game, int index, Language lang,
                        const SquareWording& wording = {});
// Said for `record` before any move, and when paging back past the first pair.
std::string no_moves_phrase(Language lang);
std::string record_start_phrase(Language lang);

// The board checked against the game: `should_be_empty` holds a peg the game has not
// there, `should_be_full` is empty where the game has a piece. At most `named` squares
// are named (those to empty first, each in square order), then "and N more".
std::string check_phrase(chess::Bitboard should_be_empty, chess::Bitboard should_be_full,
                         Language lang, int named = 3, const SquareWording& wording = {});

// The speech rate stepped: faster or slower, or already at the end of espeak-ng's range.
std::string rate_phrase(bool faster, bool at_limit, Language lang);

}  // namespace tactile::record
