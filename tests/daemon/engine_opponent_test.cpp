// SPDX-License-Identifier: GPL-3.0-or-later
// The engine at a live game (daemon/tactiled/engine_opponent.h) with a real engine from
// Debian, on the daemon's own GameRunner with its log, in real time: the player's moves
// made on his board (hole events and the announce press), each engine move made when it
// comes and reproduced on the board, a hint said, a takeback, the engine killed while it
// thinks (said, the clocks stopped, a new engine, the clocks running again), and the same
// PGN from the log alone, with no engine (`tactilectl log pgn`).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/chess/movegen.h"
#include "core/chess/uci.h"
#include "core/game/board_check.h"
#include "core/game/engine.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/engine_game.h"
#include "tests/support/seating.h"

namespace tactile::daemon {
namespace {
using ::testing::HasSubstr;

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class EngineTable {
 public:
  EngineTable(const char* engine, const char* level)
      : config_(make_config(engine, level)),
        runner_(config_,
                [this](const game::Output& o, const game::Session&) {
                  if (const auto* said = std::get_if<game::Speak>(&o)) said_.push_back(said->text);
                }),
        game_(runner_),
        opponent_(config_.seating_options),
        path_((std::filesystem::temp_directory_path() /
               ("engine-opponent-" + std::to_string(::getpid()) + "-" + level + ".jsonl"))
                  .string()),
        t0_(wall_ms()) {
    std::filesystem::remove(path_);
    runner_.open_log(path_, 0);
    runner_.start(0);
    opponent_.start(now());
    opponent_.take_game(runner_.session(), now());
  }
  ~EngineTable() { std::filesystem::remove(path_); }

  std::int64_t now() const { return wall_ms() - t0_; }
  const game::Session& s() const { return runner_.session(); }
  EngineOpponent& opponent() { return opponent_; }
  const std::vector<std::string>& said() const { return said_; }
  std::string log_text() const { return read_text_file(path_, "log"); }

  // The daemon's loop until `done` (false after `limit_ms`).
  bool run_until(const std::function<bool()>& done, std::int64_t limit_ms = 20'000) {
    const std::int64_t end = now() + limit_ms;
    while (!done()) {
      const std::int64_t t = now();
      if (t >= end) return false;
      std::int64_t wake = std::min<std::int64_t>(end, t + 50);
      if (auto d = opponent_.deadline()) wake = std::min(wake, *d);
      wake = std::min(wake, runner_.next_deadline());
      pollfd p{opponent_.fd(), opponent_.poll_events(), 0};
      const int n = ::poll(&p, p.fd >= 0 ? 1 : 0, int(std::max<std::int64_t>(0, wake - t)));
      runner_.advance(now());
      if (n > 0) opponent_.on_ready(p.revents, now(), game_);
      opponent_.on_time(now(), game_);
    }
    return true;
  }

  // Moves the pegs of `m` on the player's board as a hand would: every piece it takes
  // off first (the captured one, the mover, a castling rook), then where they go.
  void pegs(chess::Move m) {
    const chess::Position& before = s().recognizer(0).position();
    const chess::Position after = before.after(m);
    const chess::Bitboard squares = game::move_squares(before, m);
    for (int sq = 0; sq < 64; ++sq)
      if ((squares & before.occupied()) & chess::square_bb(chess::Square(sq)))
        hole(chess::Square(sq), board::Hole::Up);
    for (int sq = 0; sq < 64; ++sq)
      if ((squares & after.occupied()) & chess::square_bb(chess::Square(sq)))
        hole(chess::Square(sq), board::Hole::Down);
  }
  // The player's own move: the first legal one, made and announced.
  chess::Move play_own_move() {
    chess::MoveList legal;
    chess::generate_legal(s().position(), legal);
    const chess::Move m = legal.moves[0];
    pegs(m);
    press(board::Button::Announce);
    return m;
  }
  // The board put back to the game's position after a takeback.
  void put_back() {
    const chess::Bitboard fix = s().restoring(0);
    for (int sq = 0; sq < 64; ++sq) {
      const chess::Bitboard bit = chess::square_bb(chess::Square(sq));
      if (fix & bit)
        hole(chess::Square(sq),
             (s().position().occupied() & bit) ? board::Hole::Down : board::Hole::Up);
    }
  }
  void press(board::Button b) {
    runner_.button(0, board::ButtonEvent{now(), b});
    opponent_.follow(now(), game_);
  }
  // Waits for the engine's reply and reproduces it on the board.
  void reproduce_engine_move(int plies) {
    ASSERT_TRUE(run_until([&] { return s().moves_made() == plies; })) << "no engine move";
    const chess::Move m = s().to_reproduce(0);
    ASSERT_FALSE(m.is_none());
    pegs(m);
    EXPECT_TRUE(s().to_reproduce(0).is_none());
  }

 private:
  static game::SessionConfig make_config(const char* engine, const char* level) {
    game::SessionConfig c;
    game::testing::seat(c, "engine");
    game::testing::set_option(c, "training", "on");
    game::testing::set_option(c, "engine", engine);
    game::testing::set_option(c, "engine-level", level);
    c.time_control = clock::parse_time_control("300+2");
    c.language = record::Language::English;
    c.recognizer.completion = board::Completion::Button;
    return c;
  }
  void hole(chess::Square sq, board::Hole h) {
    runner_.hole(0, board::HoleEvent{now(), sq, h});
    opponent_.follow(now(), game_);
  }

  game::SessionConfig config_;
  std::vector<std::string> said_;
  GameRunner runner_;
  EngineGame game_;
  EngineOpponent opponent_;
  std::string path_;
  std::int64_t t0_;
};

class RealEngineGame : public ::testing::TestWithParam<const char*> {};

TEST_P(RealEngineGame, PlaysWithAHintATakebackAndAKilledEngineAndTheLogAloneGivesThePgn) {
  EngineTable t(GetParam(), "1");
  ASSERT_TRUE(t.run_until([&] { return t.opponent().ready(); })) << "the engine never answered";
  // Three moves each.
  for (int move = 0; move < 3; ++move) {
    t.play_own_move();
    t.reproduce_engine_move(2 * move + 2);
  }
  // A hint: said, not played.
  t.press(game::kHintButton);
  ASSERT_TRUE(t.run_until([&] { return t.said().back().starts_with("Hint: "); }));
  EXPECT_EQ(t.s().moves_made(), 6);
  // A takeback: his last move and the engine's reply; the board put back.
  t.press(game::kTakebackButton);
  EXPECT_EQ(t.s().moves_made(), 4);
  t.put_back();
  EXPECT_EQ(t.s().restoring(0), 0u);
  // The engine killed while it thinks: said, the clocks stopped, a new engine, on again.
  // At full strength it thinks for seconds with 5 minutes on its clock: long enough.
  for (int i = 0; i < 19; ++i) t.press(game::kStrongerButton);
  EXPECT_EQ(t.said().back(), "Level 20");
  t.play_own_move();
  EXPECT_FALSE(t.run_until([&] { return t.s().moves_made() == 6; }, 200));
  const pid_t first = t.opponent().pid();
  ASSERT_GT(first, 0);
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ASSERT_TRUE(t.run_until([&] { return t.s().paused(); }, 5'000));
  // Paused quietly: no "Clock stopped" (the engine's state is said only if its restart
  // takes over a second: "Engine restarting").
  EXPECT_NE(t.said().back(), "Clock stopped");
  EXPECT_EQ(t.s().moves_made(), 5);
  for (int i = 0; i < 19; ++i) t.press(game::kWeakerButton);  // quick again
  t.reproduce_engine_move(6);
  EXPECT_NE(t.opponent().pid(), first);
  EXPECT_FALSE(t.s().paused());
  // Said both or neither, as the restart took over a second or not; never the clocks.
  int restarting = 0, back = 0;
  for (const std::string& s : t.said()) {
    restarting += s == "Engine restarting";
    back += s == "Engine back";
    EXPECT_NE(s, "Clock running again");
  }
  EXPECT_EQ(restarting, back);
  EXPECT_LE(back, 1);
  t.play_own_move();
  t.reproduce_engine_move(8);

  // The log alone: the same game and PGN, with the engine named, and no engine run.
  const game::ResumedGame g = game::resume_from_log(t.log_text());
  EXPECT_EQ(g.session.record().moves.size(), 8u);
  EXPECT_EQ(g.session.position(), t.s().position());
  const chess::PgnGame pgn = game::log_pgn(g);
  EXPECT_EQ(pgn.tag("Event"), "Training");
  EXPECT_THAT(std::string(pgn.tag("Black")), HasSubstr(", level 1"));
}

INSTANTIATE_TEST_SUITE_P(Debian, RealEngineGame,
                         ::testing::Values("/usr/games/stockfish", "/usr/games/gnuchess --uci"),
                         [](const auto& info) {
                           return std::string(info.param).find("stockfish") != std::string::npos
                                      ? std::string("stockfish")
                                      : std::string("gnuchess");
                         });

// A game whose engine could not run was paused for it; the daemon stopped. Resumed from
// its log with an engine that runs, the game does not stay paused: once the new engine
// answers, the clocks run again ("Engine back") and the engine makes its move.
TEST(EngineOpponentResume, AGamePausedForItsEngineRunsAgainOnceTheEngineIsBack) {
  std::string text;
  {
    EngineTable t("/nonexistent/engine", "1");
    t.play_own_move();  // the engine's clock runs: the failed engine stops it
    ASSERT_TRUE(t.run_until([&] { return t.s().paused(); }, 5'000));
    text = t.log_text();
  }
  game::ResumedGame g = game::resume_from_log(text);
  EXPECT_TRUE(game::engine_left_paused(g.last_notes));
  ASSERT_TRUE(g.session.paused());

  const std::string path = (std::filesystem::temp_directory_path() /
                            ("engine-resume-" + std::to_string(::getpid()) + ".jsonl"))
                               .string();
  {
    std::ofstream file(path, std::ios::trunc);
    file << text;
  }
  std::vector<std::string> said;
  GameRunner runner(g.config, [&](const game::Output& o, const game::Session&) {
    if (const auto* s = std::get_if<game::Speak>(&o)) said.push_back(s->text);
  });
  EngineGame game(runner);
  game::SeatingOptions options = g.config.seating_options;
  options["engine"] = "/usr/games/stockfish";  // installed since
  EngineOpponent opponent(options);
  const std::int64_t t0 = wall_ms() - g.last_ms;
  const auto now = [&] { return wall_ms() - t0; };
  runner.resume(std::move(g), path, nullptr);
  opponent.start(now());
  opponent.take_game(runner.session(), now(), /*paused_for_engine=*/true);
  const std::int64_t end = now() + 20'000;
  while (runner.session().moves_made() < 2 && now() < end) {
    pollfd p{opponent.fd(), opponent.poll_events(), 0};
    const int n = ::poll(&p, p.fd >= 0 ? 1 : 0, 50);
    runner.advance(now());
    if (n > 0) opponent.on_ready(p.revents, now(), game);
    opponent.on_time(now(), game);
  }
  EXPECT_FALSE(runner.session().paused());
  EXPECT_EQ(runner.session().moves_made(), 2) << "the engine did not move after the resume";
  EXPECT_THAT(said, ::testing::Contains(std::string("Engine back")));
  std::filesystem::remove(path);
}

// The opponent on virtual time with a game of its own (what it did, recorded): a program
// that cannot be started.
class RecordedGame final : public EngineOpponent::Game {
 public:
  explicit RecordedGame(game::Session& s) : session_(s) {}
  const game::Session& session() const override { return session_; }
  void outside_move(std::int64_t, const std::string& uci) override {
    done.push_back("move " + uci);
  }
  void say(std::int64_t ms, std::string what, std::string text, game::SpeechRank) override {
    done.push_back(std::to_string(ms) + " " + what + (text.empty() ? "" : ": " + text));
  }
  void pause(std::int64_t ms) override { done.push_back(std::to_string(ms) + " pause"); }
  void resume(std::int64_t ms) override { done.push_back(std::to_string(ms) + " resume"); }
  void start_clock(std::int64_t ms, uid_t) override {
    done.push_back(std::to_string(ms) + " start");
  }
  std::vector<std::string> done;

 private:
  game::Session& session_;
};

// Issue 33: a missing engine program said "The engine does not answer" and then, 7 ms
// later, "Clock started, White to move"; `status` showed no fault. Issue 34: restarts with
// no delay. Now: a fault naming the program, one phrase after a second ("Engine
// restarting"), the arbiter's start held, restarts 0 s, 1 s, 2 s, 4 s ... apart.
TEST(EngineOpponentFaults, AMissingProgramIsAFaultSaidOnceHoldsTheStartAndBacksOff) {
  game::SessionConfig c;
  game::testing::seat(c, "engine");
  game::testing::set_option(c, "training", "on");
  game::testing::set_option(c, "engine", "/nonexistent/engine");
  c.time_control = clock::parse_time_control("300+2");
  c.language = record::Language::German;
  game::Session s(c);
  RecordedGame g(s);
  EngineOpponent opponent(c.seating_options);
  opponent.start(0);
  opponent.take_game(s, 0);
  opponent.on_time(0, g);
  EXPECT_EQ(opponent.fault(), "engine: /nonexistent/engine: No such file or directory");
  EXPECT_TRUE(opponent.hold_start(1000));
  // Time runs on to 20 s, the loop woken at the opponent's deadlines only.
  std::int64_t t = 0;
  int wakes = 0;
  while (const auto d = opponent.deadline()) {
    if (*d > 20'000) break;
    ASSERT_GE(*d, t);
    t = *d;
    opponent.on_time(t, g);
    ASSERT_LT(++wakes, 100) << "the opponent spins";
  }
  EXPECT_EQ(g.done, (std::vector<std::string>{"0 down", "1000 restarting: Computer startet neu"}));
  // Started at 0 and again at 0, 1, 3, 7 and 15 s.
  EXPECT_EQ(opponent.starts(), 6);
  EXPECT_LE(opponent.starts(), 15);
  EXPECT_FALSE(opponent.fault().empty());
  EXPECT_TRUE(opponent.start_held());
}

}  // namespace
}  // namespace tactile::daemon
