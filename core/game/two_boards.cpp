// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/two_boards.h"

#include "core/board/readings.h"
#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/game/board_check.h"
#include "core/game/entry_string.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {
namespace {
// The colour of board A's player: board-b's opposite when set, else board-a, else white.
chess::Color board_a(const SeatingOptions& o) {
  if (o.contains("board-b")) return ~colour_option(o, "board-b", chess::White);
  return colour_option(o, "board-a", chess::White);
}

class TwoBoardsDescription final : public SeatingDescription {
 public:
  TwoBoardsDescription() {
    // Registered: its second board, and board B's player's own language.
    callbacks_.boards = 2;
    callbacks_.language = [](const SeatingOptions& options,
                             int board) -> std::optional<record::Language> {
      record::Language l{};
      if (board != 1 || !options.contains("language-b") ||
          !record::parse_language(options.at("language-b"), l))
        return std::nullopt;
      return l;
    };
  }
  std::string_view name() const override { return "two-boards"; }
  std::span<const SeatingKey> keys() const override { return kKeys; }
  std::string set(SeatingOptions& options, std::string_view key,
                  const std::string& value) const override {
    std::string fault;
    if (key == "board-a" || key == "board-b") {
      fault = colour_fault(value);
      if (fault.empty() && key == "board-b" && options.contains("board-a") &&
          options.at("board-a") == value)
        fault = "is the colour of board A too: each player has his own board";
    } else if (key == "language-b") {
      fault = language_fault(value);
    } else {
      return SeatingDescription::set(options, key, value);
    }
    if (fault.empty()) options[std::string(key)] = value;
    return fault;
  }
  void write_start(const SeatingOptions& options, nlohmann::ordered_json& start) const override {
    start["board_a"] = colour_name(board_a(options));
    if (options.contains("language-b")) start["language_b"] = options.at("language-b");
  }
  SeatingOptions read_start(const nlohmann::json& start) const override {
    SeatingOptions options{{"board-a", colour_name(colour_from_start(start, "board_a"))}};
    if (start.contains("language_b")) {
      const std::string b = string_from_entry(start, "language_b");
      if (!language_fault(b).empty())
        throw chess::ParseError("language_b: '" + b + "' is not de, en or ru");
      options["language-b"] = b;
    }
    return options;
  }
  std::string_view manual() const override {
    return "two-boards: each player his own board, A and B; a move is made\n"
           "on the mover's board and reproduced on the other; a board that\n"
           "settles otherwise is a discrepancy until put right (D.2.9).\n"
           "Every printed line then starts with its board: A, B, or - for\n"
           "what belongs to the game (clock, result, the arbiter).\n";
  }
  std::string_view manual_keys() const override {
    return "        board-a = white | black | %|\n"
           "        board-b = white | black | %|\n"
           "                                        two-boards: a colour seats that player at the\n"
           "                                        board; a driver reads the board (board B's\n"
           "                                        driver is required; board A's may be `board`)\n"
           "        language-b = de | en | ru       two-boards: board B's player's language\n";
  }
  std::unique_ptr<SeatingRules> make_rules(const SessionConfig& config) const override {
    return std::make_unique<TwoBoardsSeating>(board_a(config.seating_options));
  }

 private:
  static constexpr SeatingKey kKeys[] = {
      {"board-a", "white|black",
       "two-boards: the colour of board A's player (white or black), or its driver (%T, as "
       "board)"},
      {"board-b", "white|black",
       "two-boards: the colour of board B's player (white or black), or its driver (%T)"},
      {"language-b", "de|en|ru", "two-boards: board B's language, de, en or ru"},
  };
};
}  // namespace

const SeatingDescription& two_boards_seating() {
  static const TwoBoardsDescription description;
  return description;
}

bool TwoBoardsSeating::reads(const SessionSteps& s, int board) const {
  const BoardWatch& w = watch(board);
  return owner_on_move(s, board) && w.expected.is_none() && !w.discrepant();
}

chess::Bitboard TwoBoardsSeating::unexplained_holes(const SessionSteps& s, int board) const {
  return early_reproduction(s, board, WatchedBoards::unexplained_holes(s, board));
}

bool TwoBoardsSeating::unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                                     std::vector<Output>& out) {
  // A board that reads no move: the announce press says its holes are settled; any
  // press is answered.
  answer_unread(s, board, e,
                record::refusal_phrase(record::Refusal::OpponentToMove, s.language(board)), out);
  return true;
}

void TwoBoardsSeating::made(SessionSteps& s, int board, const board::Moment& m,
                            const chess::Position& before, std::vector<Output>& out) {
  s.make_on_board(board, m, before, out);
  // Said to the opponent on his board too (D.2.1), in his language.
  s.say_move(1 - board, m.ms, s.move_announcement(1 - board, m, before, false), out);
  s.switch_clock(m.ms, out);
  boards_follow(s, m.ms, out);
  s.check_game_end(m.ms, before.side_to_move(), out);
  if (!s.over()) mirror_done_early(s, m.ms, out);
}

void TwoBoardsSeating::hole(SessionSteps& s, int board, const board::HoleEvent& e,
                            std::vector<Output>& out) {
  early_hole(s, board, e);
  reproduction_hole(s, board, e, out);
}

}  // namespace tactile::game
