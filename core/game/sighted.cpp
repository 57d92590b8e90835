// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/sighted.h"

#include <string>
#include <utility>

#include "core/board/readings.h"
#include "core/chess/movegen.h"
#include "core/game/board_check.h"
#include "core/game/entry_string.h"
#include "core/game/player_key.h"
#include "core/game/seating_buttons.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/refusal_phrases.h"
#include "core/record/time_phrase.h"

namespace tactile::game {
namespace {
using board::MomentKind;
using record::Message;

// His clock, pressed by him; a blind player's press of it in another seating is refused.
const SeatingButtons kButtons({kClockButton}, record::Refusal::NoClockButton,
                              board::PressedBy::Opponent);

// Whether a legal move in `pos` takes the piece in `square` (its hole is then part of the
// sighted player's move: the captured piece is lifted out, no own move begun).
bool capturable(const chess::Position& pos, chess::Square square) {
  chess::MoveList legal;
  chess::generate_legal(pos, legal);
  for (chess::Move m : legal)
    if (move_squares(pos, m) & chess::square_bb(square)) return true;
  return false;
}

// `m` with the promotion piece `piece` (a promotion's piece never shows on the board).
chess::Move with_piece(chess::Move m, chess::PieceType piece) {
  if (m.kind() != chess::Move::Promotion) return m;
  return chess::Move::make(m.from(), m.to(), chess::Move::Promotion, piece);
}
// The key board-b: the driver of the sighted player's own board, if he has one.
constexpr const char* kBoardBKey = "board-b";

class SightedDescription final : public SeatingDescription {
 public:
  // Registered: its board's clock button, the sighted player's press; its form with a
  // board B (the sighted player's own, a DGT board: two boards).
  explicit SightedDescription(bool board_b) {
    callbacks_.button_need = {kClockButton, "the sighted player's clock button"};
    callbacks_.boards = board_b ? 2 : 1;
    callbacks_.seated = [](const SeatingOptions& o) -> const SeatingDescription& {
      return o.contains(kBoardBKey) ? sighted_with_board_b() : sighted_seating();
    };
  }
  std::string_view name() const override { return "sighted"; }
  std::span<const SeatingKey> keys() const override { return kKeys; }
  bool driver_key(std::string_view key) const override { return key == kBoardBKey; }
  std::string set(SeatingOptions& options, std::string_view key,
                  const std::string& value) const override {
    if (key == kBoardBKey) {
      // (The config checked it names a driver.) Its player is the opponent of `player`.
      options[kBoardBKey] = value;
      return {};
    }
    if (key != kPlayerKey) return SeatingDescription::set(options, key, value);
    return set_player(options, value);
  }
  void write_start(const SeatingOptions& options, nlohmann::ordered_json& start) const override {
    write_player(options, start);
    if (options.contains(kBoardBKey)) start["board_b"] = options.at(kBoardBKey);
  }
  SeatingOptions read_start(const nlohmann::json& start) const override {
    SeatingOptions options;
    read_player(start, options);
    if (start.contains("board_b")) options[kBoardBKey] = string_from_entry(start, "board_b");
    return options;
  }
  std::string_view manual() const override {
    return "sighted: board A is the blind player's\n"
           "(--player white|black); the sighted opponent's move is made\n"
           "when board A shows it or at his `button clock`, whichever\n"
           "first; his press runs the clocks, late or never (D.2.5).\n"
           "With --board-b dgt his own DGT board is board B: his move is\n"
           "made when read there, and reproduced on board A.\n";
  }
  std::string_view manual_keys() const override {
    return "        player = white | black          sighted: the blind player's colour (default\n"
           "                                        white); the tactile board is his, the sighted\n"
           "                                        opponent's move is made when it is shown\n"
           "                                        there or at his clock button, whichever "
           "first\n"
           "        board-b = %|\n"
           "                                        sighted: the driver of the sighted player's "
           "own\n"
           "                                        board B (a DGT board: docs/dgt.md); his move\n"
           "                                        is made when read there, reproduced on board "
           "A\n";
  }
  std::unique_ptr<SeatingRules> make_rules(const SessionConfig& config) const override {
    return std::make_unique<SightedSeating>(player_colour(config.seating_options),
                                            config.start.occupied(), boards() == 2);
  }

 private:
  static constexpr SeatingKey kKeys[] = {
      player_key("sighted: the blind player's colour, white or black"),
      {kBoardBKey, "%|", "sighted: the driver of the sighted player's own board B (%T)"},
  };
  static const SeatingDescription& sighted_with_board_b() {
    static const SightedDescription description(true);
    return description;
  }
};
}  // namespace

const SeatingDescription& sighted_seating() {
  static const SightedDescription description(false);
  return description;
}

SightedSeating::SightedSeating(chess::Color player, chess::Bitboard start_holes, bool board_b)
    : player_(player), board_b_(board_b) {
  watch(0).base = start_holes;
  callbacks_.button = callback<&SightedSeating::button>;
  callbacks_.moment = callback<&SightedSeating::moment>;
  callbacks_.arbiter_matter = callback<&SightedSeating::arbiter_matter>;
}

bool SightedSeating::reads(const SessionSteps& s, int board) const {
  if (!board_b_) return true;
  const BoardWatch& w = watch(board);  // as on two boards
  return owner_on_move(s, board) && w.expected.is_none() && !w.discrepant();
}

chess::Bitboard SightedSeating::unexplained_holes(const SessionSteps& s, int board) const {
  const chess::Bitboard bad = WatchedBoards::unexplained_holes(s, board);
  return board_b_ ? early_reproduction(s, board, bad) : bad;
}

bool SightedSeating::unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                                   std::vector<Output>& out) {
  if (!board_b_) return false;  // (one board reads always)
  answer_unread(s, board, e,
                record::refusal_phrase(record::Refusal::OpponentToMove, s.language(board)), out);
  return true;
}

void SightedSeating::prepare(SessionSteps& s) {
  if (board_b_) {
    // Board A reads the blind player's moves only, as configured; board B his.
    s.recognizer(0).set_completion(s.config().recognizer.completion);
    s.recognizer(0).set_promotion_question(true);
    return;
  }
  // His moves are completed by what the board shows (nobody presses announce for them),
  // his promotion is the piece named or a queen at once; the blind player's as configured.
  const bool his = his_turn(s);
  s.recognizer(0).set_completion(his ? board::Completion::Auto : s.config().recognizer.completion);
  s.recognizer(0).set_promotion_question(!his);
}

void SightedSeating::hole(SessionSteps& s, int board, const board::HoleEvent& e,
                          std::vector<Output>& out) {
  if (board_b_) {
    // As on two boards: each board reads its owner's move and reproduces the other's.
    // The blind player's next move begins with his first event once A shows the last.
    if (board == 0 && !his_turn(s) && watch(0).expected.is_none()) next_move_began(s, e.ms);
    early_hole(s, board, e);
    reproduction_hole(s, board, e, out);
    return;
  }
  BoardWatch& w = watch(0);
  if (w.discrepant()) check_board(s, 0, e.ms, false, out);  // put right yet?
  if (!his_turn(s)) {
    next_move_began(s, e.ms);
    return;
  }
  w.events.push_back(e);
  read_stream(s, e, out);
}

void SightedSeating::read_stream(SessionSteps& s, const board::HoleEvent& e,
                                 std::vector<Output>& out) {
  const BoardWatch& w = watch(0);
  const chess::Bitboard bit = chess::square_bb(e.square);
  const chess::Position& before = s.position();
  if (!waiting_.is_none() && !(bit & waiting_holes_)) {
    // The stream went on elsewhere: the shorter move was complete, and this event is the
    // blind player's own move.
    make_from_stream(s, with_piece(waiting_, s.recognizer(0).promotion()), waiting_ms_,
                     waiting_events_, out);
    return;
  }
  waiting_ = chess::Move::none();
  chess::MoveList legal;
  chess::generate_legal(before, legal);
  const chess::PieceType piece = s.recognizer(0).promotion();
  chess::MoveList fits;
  for (const chess::Move m : legal)  // (a promotion only to the piece named)
    if (m == with_piece(m, piece) && reproduces(before, m, w.base, w.events)) fits.push(m);
  // A move whose holes are a part of another's that fits leaves events unexplained (a
  // castling's king lifted, not moved: Art. 4.3): the one that explains more is read.
  chess::Move found = chess::Move::none();
  for (const chess::Move m : fits) {
    const chess::Bitboard holes = move_squares(before, m);
    bool part = false;
    for (const chess::Move other : fits) {
      const chess::Bitboard more = move_squares(before, other);
      part |= more != holes && (more & holes) == holes;
    }
    if (part) continue;
    if (!found.is_none()) return;  // two moves fit: the recognizer ranks them when still
    found = m;
  }
  if (found.is_none()) return;
  // A longer move whose holes include all of this one's (a castling whose king or rook
  // step alone is legal) may still be under way; a promotion's piece may still be named.
  const chess::Bitboard holes = move_squares(before, found);
  chess::Bitboard longer = 0;
  for (const chess::Move m : legal) {
    const chess::Bitboard other = move_squares(before, m);
    if (other != holes && (other & holes) == holes) longer |= other;
  }
  if (longer || found.kind() == chess::Move::Promotion) {
    waiting_ = found;
    waiting_ms_ = e.ms;
    waiting_events_ = w.events.size();
    waiting_holes_ = longer ? longer | holes : 0;  // a promotion: any hole event decides
    return;
  }
  make_from_stream(s, found, e.ms, w.events.size(), out);
}

void SightedSeating::make_from_stream(SessionSteps& s, chess::Move m, std::int64_t ms,
                                      std::size_t done, std::vector<Output>& out) {
  const chess::Position before = s.position();
  const BoardWatch& w = watch(0);
  const chess::Bitboard base = w.base;
  const std::vector<board::HoleEvent> events = w.events;
  const board::Moment made{.kind = MomentKind::Made, .ms = ms, .move = m, .readings = 1};
  shown(s, made, before, out);
  if (s.over()) return;
  if (done < events.size()) next_move_began(s, events[done].ms);  // begun in the stream
  read_after(s, 0, before, m, base, events, done, out);
}

void SightedSeating::next_move_began(SessionSteps& s, std::int64_t ms) {
  if (clk_open_ply_ < 0 || clk_began_) return;
  clk_began_ = true;
  s.stamp_clock(clk_open_ply_, ms);
}

void SightedSeating::made(SessionSteps& s, int, const board::Moment& m,
                          const chess::Position& before, std::vector<Output>& out) {
  if (before.side_to_move() != player_) {
    if (board_b_)
      read_on_b(s, m, before, out);
    else
      shown(s, m, before, out);  // his move, read by stillness (the stream could not decide)
  } else {
    own_move(s, m, before, out);
  }
}

void SightedSeating::shown(SessionSteps& s, const board::Moment& m, const chess::Position& before,
                           std::vector<Output>& out) {
  // Made now (D.2.5: on his own board it was made already).
  waiting_ = chess::Move::none();
  watch(0).told_early = false;
  const std::int64_t clock_ms = record_his_move(s, m, before);
  prepare(s);  // the blind player's turn
  const Moment o = s.made_output(0, m, before);
  out.push_back(o);
  out.push_back(Mirrored{.ms = m.ms, .board = 0, .uci = o.uci, .san = o.san});
  std::string phrase(record::message_text(Message::Opponent, s.language(0)));
  phrase += ": ";
  phrase += record::move_phrase(before, m.move, s.language(0), s.squares(0));
  s.say_move(0, m.ms, std::move(phrase), out);
  // A mate, stalemate or dead position on the board ends the game with no press; the
  // clocks stand as at his press if it came first.
  s.check_game_end(m.ms, before.side_to_move(), out, clock_ms);
  if (s.over()) clk_open_ply_ = -1;  // his clock stopped where the game ended
}

std::int64_t SightedSeating::record_his_move(SessionSteps& s, const board::Moment& m,
                                             const chess::Position& before) {
  // The clocks follow his press, which came already (his clock comment is his time then)
  // or is still to come (his comment stays open until his clock stops: clk_open_ply_).
  const std::int64_t clock_ms = pressed_ms_.value_or(m.ms);
  const std::optional<clock::ChessClock>& c = s.clock();
  const bool press_to_come = !pressed_ms_ && c && c->started() && c->running() == ~player_;
  pressed_ms_.reset();
  s.record_move(m, before, clock_ms);
  clk_open_ply_ = press_to_come ? s.game().plies() - 1 : -1;
  clk_began_ = false;
  return clock_ms;
}

void SightedSeating::read_on_b(SessionSteps& s, const board::Moment& m,
                               const chess::Position& before, std::vector<Output>& out) {
  // Made as read on his board (Art. 4.7).
  const std::int64_t clock_ms = record_his_move(s, m, before);
  prepare(s);
  out.push_back(s.made_output(1, m, before));
  // The blind player hears it and reproduces it on his board (lit there).
  s.say_move(0, m.ms, s.move_announcement(0, m, before, false), out);
  boards_follow(s, m.ms, out);
  s.check_game_end(m.ms, before.side_to_move(), out, clock_ms);
  if (s.over()) {
    clk_open_ply_ = -1;  // his clock stopped where the game ended
    return;
  }
  mirror_done_early(s, m.ms, out);
}

void SightedSeating::own_move(SessionSteps& s, const board::Moment& m,
                              const chess::Position& before, std::vector<Output>& out) {
  // His announce is his press (D.2.4): it starts the opponent's clock if his own runs. If
  // the sighted player has not pressed since his move, the sighted clock runs on.
  const std::optional<clock::ChessClock>& c = s.clock();
  const bool runs = c && c->started();
  const bool switches = runs && c->running() == player_;
  if (switches) {
    s.charge_move(m.ms);
    matter_.clear();
  } else if (runs) {
    blind_moved_on_his_time_ = true;
  }
  clk_open_ply_ = -1;  // a press of his from now on belongs to his next move
  s.record_move(m, before, m.ms);
  prepare(s);
  out.push_back(s.made_output(0, m, before));
  s.say_move(0, m.ms, s.move_announcement(0, m, before, true), out);
  if (switches || !runs) s.switch_clock(m.ms, out);  // (no clock: the turn passes)
  BoardWatch& w = watch(0);
  w.base = s.recognizer(0).occupancy();  // his turn starts from the holes as they are
  w.events.clear();
  w.told_early = false;
  if (board_b_) boards_follow(s, m.ms, out);  // reproduced on his board B
  s.check_game_end(m.ms, before.side_to_move(), out);
  if (board_b_ && !s.over()) mirror_done_early(s, m.ms, out);
}

bool SightedSeating::button(SessionSteps& s, int, const board::ButtonEvent& e,
                            std::vector<Output>& out) {
  if (e.button != kClockButton) return false;
  clock_press(s, e, out);  // (before the game and after its end: nothing)
  return true;
}

void SightedSeating::clock_press(SessionSteps& s, const board::ButtonEvent& e,
                                 std::vector<Output>& out) {
  const Phase phase = s.phase();
  if (phase != Phase::Playing && phase != Phase::AwaitingStart) return;
  const chess::Color sighted = ~player_;
  if (phase == Phase::AwaitingStart) {
    if (!his_turn(s)) return;
    s.start_clock(e.ms, out, false);  // his press starts the game (said below)
  }
  if (blind_moved_on_his_time_) {
    // Art. 6.2.2: he may stop his clock after the blind player's next move; no move is
    // invented for it. The clocks follow the press as an ordinary clock's would.
    blind_moved_on_his_time_ = false;
    board::Moment late{.kind = MomentKind::Irregularity,
                       .ms = e.ms,
                       .irregularity = board::Irregularity::LatePress};
    out.push_back(Moment{.ms = e.ms, .board = 0, .moment = late});
    s.press_clock(sighted, e.ms, out);
    if (his_turn(s)) {
      // Whether he made his next move before this press only he knows: if it is not on
      // the tactile board yet, the press is taken as made with it (whichever first), and
      // the arbiter is told the blind player's clock runs in the sighted player's turn.
      if (!pressed_ms_) pressed_ms_ = e.ms;
      if (s.clock() && s.clock()->running() == player_)
        matter_ =
            "late press: the blind player's clock runs in the sighted player's turn "
            "(Art. 6.2.2; the arbiter may adjust the clocks)";
    }
    return;
  }
  const bool before_shown = his_turn(s);
  if (before_shown) {
    if (pressed_ms_) return;  // pressed already for this move
    pressed_ms_ = e.ms;       // his move is made; the board will show which
  }
  s.press_clock(sighted, e.ms, out);
  // His press started the blind player's clock before his move is on the tactile board:
  // the blind player is told at once (the move itself is said when it is reproduced).
  const std::optional<clock::ChessClock>& c = s.clock();
  if (before_shown && c && c->running() == player_)
    s.speak(0, e.ms,
            s.brief(0, e.ms) ? record::brief_clock_started(s.language(0))
                             : record::clock_started_phrase(player_, s.language(0)),
            out, Speak::Shown::No, SpeechRank::State);
  if (clk_open_ply_ >= 0) {
    s.stamp_clock(clk_open_ply_, e.ms);  // his clock stopped: his time after the increment
    clk_open_ply_ = -1;
  }
}

bool SightedSeating::moment(SessionSteps& s, int board, const board::Moment& m,
                            const chess::Position& before, std::vector<Output>& out) {
  if (board_b_) return false;  // each board reads its owner's moves, as on two boards
  if (m.kind == MomentKind::Illegal && before.side_to_move() != player_) {
    // His move, misplaced on the tactile board: nobody made an illegal move (his move is
    // on his own board); the holes no move of his explains are a discrepancy (D.2.9).
    check_board(s, board, m.ms, true, out);
    return true;
  }
  if (m.kind == MomentKind::Removed && chess::color_of(m.piece) == player_) {
    out.push_back(Moment{.ms = m.ms, .board = 0, .moment = m});
    // The blind player lifted his own piece while the opponent's move is not yet on his
    // board, and no move of the opponent takes it: his own move begun early (recorded;
    // the holes are still read).
    // (A reproduction on the board that only a longer move could still extend is his move
    // shown: this lift is the blind player's next move, decided by the stream.)
    if (!capturable(before, m.square) && waiting_.is_none())
      tell_early(s, board, m.ms, m.square, out);
    return true;
  }
  return false;
}

void SightedSeating::returned(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) {
  WatchedBoards::returned(s, ms, out);
  pressed_ms_.reset();
  blind_moved_on_his_time_ = false;
  waiting_ = chess::Move::none();
  matter_.clear();
  clk_open_ply_ = -1;
}

}  // namespace tactile::game
