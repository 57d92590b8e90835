// One game session: the recognizer of the board, the clock and the record. It is fed hole
// events, buttons and "now", and answers with what happened (the recognised moments) and
// what to do (speak, switch the clock, alarm, light squares, game over). The daemon runs
// it with real drivers and the monotonic clock, replay with a script and virtual time:
// the same code, so every behaviour can be re-derived from the raw events.
//
// Seatings (seating.h): one-board (D.2.10.1), board 0 carries both sides' moves; sighted
// (D.2.5), board 0 is the blind player's and the sighted player's move is made by his
// clock press; two-boards (D.2.9), each player his board (board_watch.cpp): the move made
// on one is reproduced on the other, and a board that differs is a discrepancy. The game
// itself is kept in one place (GameLine); each board's recognizer follows it.
//
// Time: every call carries its time; calls must not go back in time. Before handling an
// event at time t the session first handles what fell due before it (settle time, flag),
// so a caller only has to pass events in order and, while idle, wake up at
// next_deadline() and call advance().
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/board/moment.h"
#include "core/board/recognizer.h"
#include "core/chess/pgn.h"
#include "core/chess/position.h"
#include "core/clock/chess_clock.h"
#include "core/clock/time_control.h"
#include "core/game/arbiter.h"
#include "core/game/game_line.h"
#include "core/game/seating.h"
#include "core/record/language.h"
#include "core/record/messages.h"

namespace tactile::game {

struct SessionConfig {
  chess::Position start;  // chess960() set for a Chess960 game
  board::RecognizerConfig recognizer;
  std::optional<clock::TimeControl> time_control;        // none: no clock runs
  bool both_flags_draw = false;                          // rapid/blitz 1.16.7
  record::Language language = record::Language::German;  // board A's player's
  Seating seating = Seating::OneBoard;
  chess::Color player = chess::White;   // sighted: the blind player's colour (board A)
  chess::Color board_a = chess::White;  // two-boards: the colour of board A's player
  // two-boards: board B's player's language; none: the same as board A's.
  std::optional<record::Language> language_b;
  // Live mode: the clock does not start with the session but on the arbiter's start
  // command, or on an announce press while the board shows the start position and no
  // move has been made (a club game with no arbiter). Booting never starts a clock.
  bool wait_for_start = false;
};

// A move sealed at an adjournment (1985 rules 13), kept until it is put on the board at
// resumption (14.2). Never announced, never in the record before then.
struct SealedMove {
  clock::Adjournment envelope;  // sealer, remaining times and move counts at the seal
  chess::Move move;
  std::string san;         // in the position before it
  chess::Position before;  // the position the sealed move is made from
  int move_number = 0;     // the sealer's move number
};

struct Output {
  enum class Kind : std::uint8_t {
    Moment,        // a recognised moment
    Speak,         // say `text` aloud to `board`'s player
    SwitchClock,   // `color`'s clock runs now (D.2.4)
    Alarm,         // something needs attention at once on `board` (the beeper)
    LightSquares,  // show `squares` on `board` (holes that differ; 0: lights off)
    GameOver,      // `result` ("1-0", "0-1", "1/2-1/2"), `reason` why
    Sealed,        // adjourned: the sealed move (`uci`, `san`) is in Session::sealed()
    Mirrored,      // `board` reproduced the opponent's move (`uci`, `san`)
    Discrepancy,   // `board`'s holes differ from the game (D.2.9): `empty`, `occupied`
    Resolved,      // `board` matches the game again
    Rollback,      // the arbiter's rollback took effect: `number`, `plies`, clocks, `fix`
  };
  Kind kind = Kind::Moment;
  std::int64_t ms = 0;
  int board = 0;  // the board it belongs to: 0 = A, 1 = B (whose player hears or sees it)
  board::Moment moment;
  std::string text;    // Speak: the phrase
  std::string san;     // Moment, Sealed, Mirrored: the move in SAN
  std::string uci;     // Moment, Sealed, Mirrored: the move in UCI (Chess960: king takes rook)
  std::string result;  // GameOver: "1-0", "0-1" or "1/2-1/2"
  std::string reason;  // GameOver: why (checkmate, time forfeit, ...)
  // Speak: the number of the question it asks (a pending reading, D.2.8), 0 for a
  // statement. The caller reports with heard() when it has been said to its end.
  int question = 0;
  chess::Color color = chess::White;
  chess::Bitboard squares = 0;
  // Discrepancy: holes that are empty but should hold a peg, and holes that hold a peg
  // but should be empty.
  chess::Bitboard empty = 0;
  chess::Bitboard occupied = 0;
  // Rollback: back to the position after move `number` (`plies` half-moves kept), the
  // clocks set to `white_ms` and `black_ms`, and the holes each board must fix.
  int number = 0;
  int plies = 0;
  std::int64_t white_ms = 0;
  std::int64_t black_ms = 0;
  chess::Bitboard fix[2] = {0, 0};
};

std::string_view output_kind_name(Output::Kind k);

// An output of `kind` at `ms`; the caller fills in what that kind carries.
inline Output make_output(Output::Kind kind, std::int64_t ms) {
  Output o;
  o.kind = kind;
  o.ms = ms;
  return o;
}

class Session {
 public:
  explicit Session(SessionConfig config);

  // Starts the game at `now_ms`: the side to move's clock runs (White's, Art. 6.6), or,
  // with config.wait_for_start, waits for the arbiter's start (or an announce press).
  void start(std::int64_t now_ms, std::vector<Output>& out);

  // The arbiter's commands (session_arbiter.cpp, docs/arbiter.md). arbiter_refusal says
  // why `c` cannot be done now ("" when it can); on_arbiter does it at `now_ms` (a
  // refused command does nothing). Time never goes back, as for the events.
  std::string arbiter_refusal(const ArbiterCommand& c) const;
  void on_arbiter(std::int64_t now_ms, const ArbiterCommand& c, std::vector<Output>& out);

  // Board 0 is board A, 1 board B (two-boards only; elsewhere board B is ignored).
  void on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out);
  void on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out);
  // The question `question` (a Speak output's number) has been said to its end at `ms`:
  // auto mode confirms a pending reading only a settle time after this. A report of an
  // older question (corrected or withdrawn since) changes nothing. Questions are numbered
  // across the boards, so the number alone says whose it was (`board` is where it was
  // heard: the Speak output's board).
  void heard(int board, int question, std::int64_t ms, std::vector<Output>& out);
  // The question still being said, awaiting heard(); 0 if none.
  int unheard_question() const;
  // The board the last question was asked on (its player hears it).
  int question_board() const { return question_board_; }
  // Handles everything due up to and including `now_ms` (settle time, flag fall).
  void advance(std::int64_t now_ms, std::vector<Output>& out);
  // The next time advance() has something to do; board::kNoDeadline if none.
  std::int64_t next_deadline() const;
  // Only the boards' deadlines (settle times, holes to check), without the clock's flag.
  std::int64_t board_deadline() const;

  // The game's position now (the boards follow it: see recognizer()).
  const chess::Position& position() const { return game_.position(); }
  const chess::PgnGame& record() const { return game_.record(); }  // the game so far (PGN)
  const GameLine& game() const { return game_; }
  bool over() const { return over_; }
  const std::optional<clock::ChessClock>& clock() const { return clock_; }
  int moves_made() const { return game_.plies(); }
  const std::string& last_spoken() const { return last_spoken_[0]; }
  // The recognizer of `board`: the position that board shows (or is to show once it has
  // reproduced the last move) and its holes.
  const board::Recognizer& recognizer(int board = 0) const { return boards_[board_index(board)]; }
  const SessionConfig& config() const { return config_; }
  Seating seating() const { return config_.seating; }
  // The number of boards the seating uses: 2 for two-boards, else 1.
  int board_count() const { return config_.seating == Seating::TwoBoards ? 2 : 1; }
  // The colour whose player sits at `board` (two-boards), the blind player's (sighted);
  // one-board: the side to move.
  chess::Color owner(int board) const;
  // The holes of `board` that differ from what the game expects there and are a
  // discrepancy now (D.2.9); 0 if none.
  chess::Bitboard discrepancy(int board) const;
  // The move `board` must still reproduce (two-boards: the opponent's last move; sighted:
  // the sighted player's move after his press); none if nothing.
  chess::Move to_reproduce(int board) const;
  // Whether the clock has been started (or, with no clock, the game).
  bool clock_started() const { return started_; }
  bool paused() const { return paused_; }
  // Adjourned: a move was sealed and the game waits for resume-adjourned (or, after it,
  // for the sealed move to be put on the board).
  bool adjourned() const { return sealed_.has_value(); }
  // After adjourn, until the player on move has made (sealed) his move.
  bool sealing() const { return sealing_; }
  const std::optional<SealedMove>& sealed() const { return sealed_; }
  // The holes that differ from the position while the board is being put back after a
  // take-back, a rollback or a seal (0 when it is not): nothing is read until they match.
  chess::Bitboard restoring(int board = 0) const;

 private:
  // What the session keeps of one board besides its recognizer (two-boards, sighted).
  struct BoardWatch {
    chess::Move expected = chess::Move::none();  // the move it must still reproduce
    chess::Bitboard base = 0;                    // its holes when that began
    std::vector<board::HoleEvent> events;        // its hole events since then
    chess::Bitboard empty = 0;     // the discrepancy reported: holes that should be full
    chess::Bitboard occupied = 0;  // ... and holes that should be empty
    std::int64_t check_at = board::kNoDeadline;  // when its settled holes are checked
    bool told_early = false;                     // told to reproduce the opponent's move first
    bool restoring = false;  // being put back after a take-back, rollback or seal
    // Two boards: hole events while its owner waits for the opponent's move and has
    // nothing to reproduce yet (a reproduction begun before the mover's announce), and
    // its holes before the first of them.
    std::vector<board::HoleEvent> early;
    chess::Bitboard early_base = 0;
    bool discrepant() const { return empty | occupied; }
  };

  static int board_index(int board) { return board == 1 ? 1 : 0; }
  board::Recognizer& rec(int board) { return boards_[board_index(board)]; }
  record::Language language(int board) const;
  bool uses(int board) const { return board >= 0 && board < board_count(); }

  // Moments of board `board`'s recognizer (from position `before`), in order.
  void dispatch(int board, const chess::Position& before, std::vector<Output>& out);
  void handle(int board, const board::Moment& m, const chess::Position& before,
              std::vector<Output>& out);  // all but Made
  // A move made on `board`: the steps below, in order.
  void on_made(int board, const board::Moment& m, const chess::Position& before,
               std::vector<Output>& out);
  void record_move(const board::Moment& m, const chess::Position& before, std::int64_t clock_ms);
  void announce_move(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out);
  void switch_clock(std::int64_t ms, std::vector<Output>& out);  // the side to move's runs
  // `clock_ms`: when the move was made, if before `ms` (the sighted player's press: the
  // game ended then, and the clocks stand as they were at that moment).
  void check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                      std::int64_t clock_ms = -1);

  // Two boards (board_watch.cpp): after a move the boards take their roles again.
  void boards_follow(std::int64_t ms, std::vector<Output>& out);
  // Mirrors at once a board that reproduced the last move before it was announced.
  void mirror_done_early(std::int64_t ms, std::vector<Output>& out);
  void watch_hole(int board, const board::HoleEvent& e, std::vector<Output>& out);
  void mirrored(int board, std::int64_t ms, std::vector<Output>& out);
  void check_board(int board, std::int64_t ms, bool settled, std::vector<Output>& out);
  // `board`, showing `shown` with pegs in `base` when `events` began, has reproduced `m`:
  // its recognizer reads from the position after `m`, and the events not on m's holes
  // (an own move begun early) are read again, in their order.
  void read_after(int board, const chess::Position& shown, chess::Move m, chess::Bitboard base,
                  const std::vector<board::HoleEvent>& events, std::vector<Output>& out);
  // Whether `board`'s recognizer reads moves now.
  bool reads(int board) const;
  void refreeze(int board);
  // Sighted: board A's recognizer completes the sighted player's moves by stillness (no
  // one presses announce for them), the blind player's as configured.
  void sync_completion();
  bool owner_on_move(int board) const;

  // Sighted (D.2.5): the opponent's clock press.
  void clock_pressed(const board::ButtonEvent& e, std::vector<Output>& out);
  // Sighted: a hole event in the sighted player's turn (his move and, begun early, the
  // blind player's own).
  void sighted_hole(const board::HoleEvent& e, std::vector<Output>& out);

  void check_flag(std::int64_t now_ms, std::vector<Output>& out);
  void end_game(std::int64_t ms, std::string result, std::string reason, std::vector<Output>& out,
                std::int64_t clock_ms = -1);
  void speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out);
  // `m` said on every board, in each player's language.
  void say_all(std::int64_t ms, record::Message m, std::vector<Output>& out);
  void say_time(int board, std::int64_t ms, std::vector<Output>& out);
  void start_clock(std::int64_t ms, std::vector<Output>& out);
  // The club start: an announce press on the start position before any move.
  bool starts_clock(const board::ButtonEvent& e) const;
  // session_arbiter.cpp
  void seal(int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out);
  // A move made after resume-adjourned: the sealed one, or refused.
  void made_at_resumption(int board, const board::Moment& m, const chess::Position& before,
                          std::vector<Output>& out);
  // Puts the game back to the position after its first `plies` moves (record, repetition
  // keys, every board); a board is then read only once its holes show that position.
  // Returns the holes each board must fix.
  std::array<chess::Bitboard, 2> return_to(int plies, std::int64_t ms, std::vector<Output>& out);
  // Ends a restore when the holes match the position again.
  void check_restored(int board);
  void take_back(std::int64_t ms, std::vector<Output>& out);
  void roll_back(std::int64_t ms, int number, std::vector<Output>& out);
  void set_time(std::int64_t ms, const ArbiterCommand& c, std::vector<Output>& out);
  // The number of the first `plies` plies that fill whole moves up to move `number`.
  int plies_through(int number) const;

  SessionConfig config_;
  GameLine game_;
  std::array<board::Recognizer, 2> boards_;
  std::array<BoardWatch, 2> watch_;
  std::optional<clock::ChessClock> clock_;
  std::vector<board::Moment> moments_;  // scratch, reused
  std::string last_spoken_[2];
  bool begun_ = false;    // start() was called
  bool started_ = false;  // the clock was started
  int question_ = 0;      // the number of the last question asked
  int question_board_ = 0;
  bool over_ = false;
  bool paused_ = false;
  bool sealing_ = false;
  bool adjourn_resumed_ = false;  // resume-adjourned given, the sealed move not yet made
  std::optional<SealedMove> sealed_;
  // Sighted: the opponent pressed his clock (at that time) before his move was on the
  // tactile board; the move is his once the board shows it.
  std::optional<std::int64_t> pressed_ms_;
  // Sighted: the opponent's move shown on the tactile board before his press.
  std::optional<board::Moment> shown_;
  std::optional<chess::Position> shown_before_;
};

}  // namespace tactile::game
