// SPDX-License-Identifier: GPL-3.0-or-later
// The engine seating (docs/engine.md) at the core, fed hole events, buttons and the
// engine's moves as outside moves (no engine process): the engine's move made when it
// comes and reproduced on the player's board, a wrong reproduction, the training buttons,
// the fair-play marks, and the game re-derived from its log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/engine.h"
#include "core/game/json_integer.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "tests/game/seated_table.h"
#include "tests/support/seating.h"

namespace tactile::game {
namespace {
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::SeatedTable;
constexpr int A = 0;

SessionConfig engine_game(const char* player = "white", const char* tc = "600+0") {
  SessionConfig c = SeatedTable::config("engine", tc);
  c.language = record::Language::English;
  testing::set_option(c, "player", player);
  testing::set_option(c, "engine-level", "3");
  testing::set_option(c, "training", "on");
  c.seating_options[kEngineNameOption] = "Stockfish 15.1";
  return c;
}

const EngineSeating& rules(const SeatedTable& t) {
  return dynamic_cast<const EngineSeating&>(t.s().rules());
}

chess::Bitboard bb(std::initializer_list<const char*> squares) {
  chess::Bitboard b = 0;
  for (const char* s : squares) b |= chess::square_bb(chess::parse_square(s));
  return b;
}

std::int64_t remaining(const SeatedTable& t, chess::Color c, std::int64_t ms) {
  return t.s().clock()->remaining_ms(c, ms);
}

TEST(EngineSeating, TheEnginesMoveIsMadeWhenItComesAndReproducedOnThePlayersBoard) {
  SeatedTable t(engine_game());
  EXPECT_FALSE(rules(t).engine_to_move(t.s().phase(), t.s().position()));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
  EXPECT_TRUE(rules(t).engine_to_move(t.s().phase(), t.s().position()));
  EXPECT_EQ(t.s().clock()->running(), chess::Black);  // the engine's clock while it thinks

  t.forget();
  t.outside(4300, "e7e5");
  // Made at once: in the record, the clocks switched, said; the engine thought 3 s.
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(remaining(t, chess::Black, 4300), 600'000 - 3'000);
  ASSERT_EQ(t.count<game::SwitchClock>(), 1u);
  EXPECT_EQ(t.of<game::SwitchClock>()[0].running, chess::White);
  ASSERT_EQ(t.spoken(A).size(), 1u);
  EXPECT_THAT(t.spoken(A)[0], HasSubstr("e"));
  ASSERT_EQ(t.count<game::LightSquares>(A), 1u);
  EXPECT_EQ(t.of<game::LightSquares>(A)[0].squares, bb({"e7", "e5"}));
  EXPECT_EQ(t.s().to_reproduce(A), t.s().record().moves[1].move);
  // His board must show it before his own move is read.
  t.move(A, 5000, "g1", "f3").press(A, 5300);
  EXPECT_EQ(t.moves().size(), 2u);
  t.move(A, 6000, "f3", "g1");  // put back
  t.move(A, 7000, "e7", "e5");
  ASSERT_EQ(t.count<game::Mirrored>(), 1u);
  EXPECT_EQ(t.of<game::Mirrored>()[0].uci, "e7e5");
  EXPECT_TRUE(t.s().to_reproduce(A).is_none());
  t.move(A, 8000, "g1", "f3").press(A, 8300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  EXPECT_EQ(t.count<game::Discrepancy>(), 0u);
}

// The engine's mate ends the game; the player still puts its move on his board: it is
// mirrored and its lights go out, as any move of the engine's (they stayed lit before).
TEST(EngineSeating, TheEnginesMatingMoveIsStillReproducedAfterTheEnd) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "f2", "f3").press(A, 1300);
  t.outside(2000, "e7e5");
  t.move(A, 3000, "e7", "e5");
  t.move(A, 4000, "g2", "g4").press(A, 4300);
  t.outside(5000, "d8h4");  // mate
  ASSERT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "0-1");
  t.forget();
  t.move(A, 6000, "d8", "h4");
  ASSERT_EQ(t.count<game::Mirrored>(), 1u);
  EXPECT_EQ(t.of<game::Mirrored>()[0].uci, "d8h4");
  ASSERT_EQ(t.count<game::LightSquares>(A), 1u);
  EXPECT_EQ(t.of<game::LightSquares>(A)[0].squares, 0u);
  EXPECT_TRUE(t.s().to_reproduce(A).is_none());
  // Nothing more is read or said after the end.
  t.move(A, 7000, "e2", "e4").press(A, 7300);
  EXPECT_THAT(t.moves(), ElementsAre("f2f3", "e7e5", "g2g4", "d8h4"));
  EXPECT_EQ(t.count<game::Discrepancy>(), 0u);
}

TEST(EngineSeating, AWrongReproductionIsNamedUntilPutRight) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.outside(2000, "e7e5");
  t.move(A, 3000, "e7", "e6");  // one square short
  t.advance(4200);              // the board settles
  ASSERT_EQ(t.count<game::Discrepancy>(), 1u);
  EXPECT_THAT(t.spoken(A).back(), HasSubstr("Board wrong"));
  t.move(A, 5000, "e6", "e5");
  EXPECT_EQ(t.count<game::Resolved>(), 1u);
  EXPECT_EQ(t.count<game::Mirrored>(), 1u);
  t.move(A, 6000, "g1", "f3").press(A, 6300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
}

TEST(EngineSeating, TheEngineMovesFirstWhenThePlayerIsBlack) {
  SeatedTable t(engine_game("black"));
  EXPECT_TRUE(rules(t).engine_to_move(t.s().phase(), t.s().position()));
  t.outside(500, "d2d4");
  t.move(A, 1500, "d2", "d4");
  EXPECT_EQ(t.count<game::Mirrored>(), 1u);
  t.move(A, 2000, "d7", "d5").press(A, 2300);
  EXPECT_THAT(t.moves(), ElementsAre("d2d4", "d7d5"));
}

TEST(EngineSeating, OnlyTheEnginesMoveOnItsTurnIsTaken) {
  SeatedTable t(engine_game());
  t.outside(500, "e2e4");  // the player's turn
  EXPECT_TRUE(t.moves().empty());
  EXPECT_EQ(t.count<game::Alarm>(), 1u);
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.outside(1500, "e7e5", "network");  // not the engine
  EXPECT_EQ(t.moves().size(), 1u);
  t.outside(1600, "e7e5");
  EXPECT_EQ(t.moves().size(), 2u);
}

TEST(EngineSeating, TakebackTakesBackHisMoveAndTheRepliesAndSetsTheClocksBack) {
  SeatedTable t(engine_game("white", "600+5"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.outside(3300, "e7e5");
  t.move(A, 4000, "e7", "e5");
  // His second turn begins at 3300: his clock 600 - 1.3 + 5 s, the engine's 600 - 2 + 5 s.
  const std::int64_t white_then = remaining(t, chess::White, 3300);
  const std::int64_t black_then = remaining(t, chess::Black, 3300);
  t.move(A, 10000, "g1", "f3").press(A, 10300);
  t.outside(12300, "b8c6");
  t.move(A, 13000, "b8", "c6");
  t.forget();
  t.press(A, 20000, game::kTakebackButton);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(remaining(t, chess::White, 20000), white_then);
  EXPECT_EQ(remaining(t, chess::Black, 20000), black_then);
  EXPECT_EQ(t.s().clock()->moves_completed(chess::White), 1);
  EXPECT_EQ(t.s().clock()->running(), chess::White);
  // The board is checked back: the knights must go home.
  EXPECT_EQ(t.s().restoring(A), bb({"f3", "g1", "c6", "b8"}));
  EXPECT_THAT(t.spoken(A), Contains("Taken back. Your move"));
  t.move(A, 21000, "f3", "g1").move(A, 21500, "c6", "b8");
  EXPECT_EQ(t.s().restoring(A), 0u);
  t.move(A, 22000, "d2", "d4").press(A, 22300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "d2d4"));
}

TEST(EngineSeating, TakebackWhileTheEngineThinksTakesBackHisMoveAlone) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.press(A, 2000, game::kTakebackButton);
  EXPECT_TRUE(t.moves().empty());
  EXPECT_EQ(t.s().clock()->running(), chess::White);
  EXPECT_EQ(remaining(t, chess::White, 2000), 600'000);
  EXPECT_EQ(remaining(t, chess::Black, 2000), 600'000);
  EXPECT_FALSE(rules(t).engine_to_move(t.s().phase(), t.s().position()));
  t.outside(2500, "e7e5");  // the engine's answer to a move taken back: refused
  EXPECT_TRUE(t.moves().empty());
  t.press(A, 3000, game::kTakebackButton);  // nothing left
  EXPECT_EQ(t.spoken(A).back(), "Nothing to take back");
}

TEST(EngineSeating, HintsAreCountedForTheEngineAndLevelsStepWithinTheScale) {
  SeatedTable t(engine_game());
  EXPECT_EQ(rules(t).level(), 3);
  t.press(A, 500, game::kHintButton);
  EXPECT_EQ(rules(t).hints_asked(), 1);
  EXPECT_TRUE(t.moves().empty());  // a hint plays nothing
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.press(A, 1500, game::kHintButton);  // the engine's turn
  EXPECT_EQ(rules(t).hints_asked(), 1);
  EXPECT_EQ(t.spoken(A).back(), "The engine is thinking");
  t.press(A, 2000, game::kStrongerButton);
  EXPECT_EQ(rules(t).level(), 4);
  EXPECT_EQ(t.spoken(A).back(), "Level 4");
  for (int i = 0; i < 5; ++i) t.press(A, 2100 + i, game::kWeakerButton);
  EXPECT_EQ(rules(t).level(), 1);
  EXPECT_EQ(t.spoken(A).back(), "No further: level 1");
}

TEST(EngineSeating, TheTrainingButtonsDoNothingInAnotherSeating) {
  SeatedTable t(SeatedTable::config("one-board"));
  t.press(A, 500, game::kHintButton).press(A, 600, game::kTakebackButton);
  t.press(A, 700, game::kStrongerButton);
  // Each press answered (issue 33): the game has no engine.
  EXPECT_THAT(t.spoken(A),
              ElementsAre("Kein Computer in dieser Partie", "Kein Computer in dieser Partie",
                          "Kein Computer in dieser Partie"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
}

TEST(EngineSeating, ItRunsOnlyWithTrainingOnAndSaysSoEverywhere) {
  SessionConfig c = SeatedTable::config("engine");
  const SeatingDescription& d = *c.seating;
  EXPECT_THAT(d.missing(c.seating_options), HasSubstr("training = on"));
  testing::set_option(c, "training", "off");
  EXPECT_THAT(d.missing(c.seating_options), HasSubstr("training"));
  testing::set_option(c, "training", "on");
  EXPECT_EQ(d.missing(c.seating_options), "");
  EXPECT_NE(d.set(c.seating_options, "engine-level", "21"), "");
  EXPECT_NE(d.set(c.seating_options, "engine-level", "0"), "");
  EXPECT_NE(d.set(c.seating_options, "engine", "stockfish"), "");  // not a path
  EXPECT_NE(d.set(c.seating_options, "training", "yes"), "");
  EXPECT_TRUE(d.training(c.seating_options));

  const SessionConfig g = engine_game("black");
  const LogEntry start = start_entry(0, g);
  EXPECT_EQ(start["training"], true);
  EXPECT_EQ(start["engine"], "/usr/games/stockfish");
  EXPECT_EQ(start["engine_level"], 3);
  EXPECT_EQ(start["engine_name"], "Stockfish 15.1");
  const auto tags = g.seating->pgn_tags(g.seating_options);
  EXPECT_EQ(tags.at("White"), "Stockfish 15.1, level 3");
  EXPECT_EQ(tags.at("Event"), "Training");
  EXPECT_FALSE(tags.contains("Black"));
  // Without the engine's own name: its program's.
  SessionConfig unnamed = SeatedTable::config("engine");
  testing::set_option(unnamed, "engine", "/usr/games/gnuchess --uci");
  testing::set_option(unnamed, "training", "on");
  EXPECT_EQ(unnamed.seating->pgn_tags(unnamed.seating_options).at("Black"), "gnuchess, level 5");
}

TEST(EngineSeating, TheLogAloneGivesTheGameItsPgnAndResumesIt) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.outside(2000, "e7e5");
  t.move(A, 3000, "e7", "e5");
  t.move(A, 4000, "g1", "f3").press(A, 4300);
  t.outside(5000, "b8c6");
  t.press(A, 5500, game::kStrongerButton);
  t.press(A, 6000, game::kTakebackButton);
  t.move(A, 7000, "f3", "g1");
  t.move(A, 8000, "d2", "d4").press(A, 8300);
  t.outside(9000, "d7d5");
  const ResumedGame g = resume_from_log(t.log_text());
  EXPECT_EQ(g.session.record().moves.size(), 4u);
  EXPECT_EQ(g.session.position(), t.s().position());
  EXPECT_EQ(dynamic_cast<const EngineSeating&>(g.session.rules()).level(), 4);
  EXPECT_EQ(g.session.to_reproduce(A), t.s().to_reproduce(A));
  const chess::PgnGame pgn = log_pgn(g);
  EXPECT_EQ(pgn.tag("Black"), "Stockfish 15.1, level 3");
  EXPECT_EQ(pgn.tag("Event"), "Training");
  std::vector<std::string> moves;
  chess::Position p = pgn.start;
  for (const chess::PgnMove& m : pgn.moves) {
    moves.push_back(chess::to_uci(p, m.move));
    p.play(m.move);
  }
  EXPECT_THAT(moves, ElementsAre("e2e4", "e7e5", "d2d4", "d7d5"));
  EXPECT_THAT(chess::write_pgn(pgn), HasSubstr("[Event \"Training\"]"));
}

ArbiterCommand command(ArbiterCommand::Kind kind, const char* reason = "") {
  ArbiterCommand c;
  c.kind = kind;
  c.reason = reason;
  return c;
}

// Issue 33: a 0.16 s engine restart cost 8.5 s of speech, "Clock stopped" and "Clock
// running again" among it. The daemon's pause for its engine is quiet: logged (and
// replayed) as the arbiter's pause with its reason, "engine", nothing said; the arbiter's own
// pause is said as before.
TEST(EngineSeating, TheDaemonsQuietPauseForItsEngineSaysNothingAndReplays) {
  SeatedTable t(engine_game());
  t.arbiter(500, command(ArbiterCommand::Kind::Start));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  const std::size_t before = t.spoken(A).size();
  t.arbiter(2000, command(ArbiterCommand::Kind::Pause, "engine"));
  EXPECT_TRUE(t.s().paused());
  t.arbiter(2500, command(ArbiterCommand::Kind::Resume, "engine"));
  EXPECT_FALSE(t.s().paused());
  EXPECT_EQ(t.spoken(A).size(), before);
  EXPECT_THAT(t.log_text(), HasSubstr("\"command\":\"pause\",\"reason\":\"engine\""));
  const ArbiterCommand read =
      arbiter_command_from_json(nlohmann::json::parse(R"({"command":"pause","reason":"engine"})"));
  EXPECT_EQ(read.reason, "engine");
  EXPECT_THROW(
      arbiter_command_from_json(nlohmann::json::parse(R"({"command":"pause","reason":1})")),
      chess::ParseError);
  const ResumedGame g = resume_from_log(t.log_text());
  EXPECT_FALSE(g.session.paused());
  t.arbiter(3000, command(ArbiterCommand::Kind::Pause));
  EXPECT_EQ(t.spoken(A).back(), "Clock stopped");
}

// Issue 34: `engine_level` 4294967297 in a log was read as level 1 (get<int>() after only
// is_number_integer) by replay, `log pgn`, resume and the hall. A level is read as an int,
// never wrapped into one; so is every integer of a log (json_integer.h).
TEST(EngineSeating, AnEngineLevelPastAnIntInTheLogIsRefusedNotWrapped) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  const std::string text = t.log_text();
  const std::string first = text.substr(0, text.find('\n'));
  for (const char* level : {"4294967297", "18446744073709551617", "-4294967295", "3.0", "\"3\""}) {
    nlohmann::json start = nlohmann::json::parse(first);
    start["engine_level"] = nlohmann::json::parse(level);
    EXPECT_THROW(engine_seating().read_start(start), chess::ParseError) << level;
  }
  nlohmann::json start = nlohmann::json::parse(first);
  start["engine_level"] = 20;
  EXPECT_EQ(engine_seating().read_start(start).at("engine-level"), "20");
  // The shared reader, in its own type.
  EXPECT_EQ(json_integer<int>(nlohmann::json(4294967297LL)), std::nullopt);
  EXPECT_EQ(json_integer<int>(nlohmann::json(std::uint64_t(1) << 63)), std::nullopt);
  EXPECT_EQ(json_integer<std::int64_t>(nlohmann::json(std::uint64_t(1) << 63)), std::nullopt);
  EXPECT_EQ(json_integer<std::int64_t>(nlohmann::json(-5)), -5);
  EXPECT_EQ(json_integer<unsigned>(nlohmann::json(-1)), std::nullopt);
  EXPECT_EQ(json_integer<int>(nlohmann::json(7), 1, 20), 7);
  EXPECT_EQ(json_integer<int>(nlohmann::json(21), 1, 20), std::nullopt);
  EXPECT_EQ(json_integer<int>(nlohmann::json(2.0)), std::nullopt);
}

// Issue 33: short of time (brief-below), the engine's state is one word, as the clocks'
// is; with time enough, the phrase as before.
TEST(EngineSeating, TheEnginesStateIsOneWordWhenTheListenerIsShortOfTime) {
  using record::Language;
  EXPECT_EQ(game::engine_down_phrase(Language::English), "Engine restarting");
  EXPECT_EQ(game::engine_back_phrase(Language::English), "Engine back");
  EXPECT_EQ(game::engine_down_phrase(Language::English, true), "Restarting");
  EXPECT_EQ(game::engine_back_phrase(Language::English, true), "Back");
  EXPECT_EQ(game::engine_down_phrase(Language::German, true), "Neustart");
  EXPECT_EQ(game::engine_back_phrase(Language::German, true), "Bereit");
  EXPECT_EQ(game::engine_down_phrase(Language::Russian, true), "Перезапуск");
  EXPECT_EQ(game::engine_back_phrase(Language::Russian, true), "Работает");
}

}  // namespace
}  // namespace tactile::game
