// SPDX-License-Identifier: GPL-3.0-or-later
// A move from outside the boards (Session::on_outside_move), one more kind of input: its
// log record, its refusal by the seatings on the boards alone, a seating that takes it
// (a test-only one, an engine's stand-in), and its replay and resume from the log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"
#include "core/game/seating_rules.h"
#include "tests/game/seated_table.h"
#include "tests/support/seating.h"

namespace tactile::game {
namespace {
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::SeatedTable;
constexpr int A = 0;

// An engine's stand-in: board A is White's, Black's moves come from outside the boards.
// A move taken is made as a move on another board: recorded, the clocks switched, said to
// the player; his board is taken as showing it (the reproduction is the engine seating's).
class OutsideOpponentRules final : public SeatingRules {
 public:
  OutsideOpponentRules() {
    callbacks_.outside_move_refusal = callback<&OutsideOpponentRules::outside_move_refusal>;
    callbacks_.outside_move = callback<&OutsideOpponentRules::outside_move>;
  }
  std::unique_ptr<SeatingRules> clone() const override {
    return std::make_unique<OutsideOpponentRules>(*this);
  }
  chess::Color owner(const SessionSteps&, int) const override { return chess::White; }
  bool reads(const SessionSteps& s, int) const override {
    return s.position().side_to_move() == chess::White;
  }
  void hole(SessionSteps&, int, const board::HoleEvent&, std::vector<Output>&) override {}
  void made(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out) override {
    s.make_on_board(board, m, before, out);
    s.switch_clock(m.ms, out);
    s.refreeze(0);
  }
  std::string outside_move_refusal(const SessionSteps& s, chess::Move,
                                   std::string_view source) const {
    if (source != "engine") return "only the engine's moves";
    return s.position().side_to_move() == chess::Black ? "" : "not the engine's turn";
  }
  void outside_move(SessionSteps& s, const board::Moment& m, const chess::Position& before,
                    std::string_view, std::vector<Output>& out) {
    s.charge_move(m.ms);
    s.record_move(m, before, m.ms);
    out.push_back(s.made_output(A, m, before));
    s.speak(A, m.ms, s.move_announcement(A, m, before, false), out);
    s.switch_clock(m.ms, out);
    chess::Position after = before;
    after.play(m.move);
    s.recognizer(A).reset(after, after.occupied());
    s.refreeze(A);
    s.check_game_end(m.ms, before.side_to_move(), out);
  }
};

class OutsideOpponent final : public SeatingDescription {
 public:
  std::string_view name() const override { return "outside-opponent"; }
  std::string_view manual() const override { return "test only\n"; }
  std::unique_ptr<SeatingRules> make_rules(const SessionConfig&) const override {
    return std::make_unique<OutsideOpponentRules>();
  }
};

SessionConfig outside_opponent() {
  static const OutsideOpponent description;
  SessionConfig c = SeatedTable::config("one-board");
  c.seating = &description;
  c.language = record::Language::English;
  return c;
}

std::vector<std::string> kinds(const SeatedTable& t) {
  std::vector<std::string> r;
  for (const game::Moment& o : t.of<game::Moment>())
    r.push_back(std::string(board::moment_name(o.moment.kind)));
  return r;
}

TEST(OutsideMove, ItsLogRecordHoldsTheMoveAndItsSourceAndReadsBack) {
  const LogEntry j = outside_move_entry(2400, "e7e5", "engine");
  EXPECT_EQ(j.dump(), R"({"t":2400,"type":"outside-move","uci":"e7e5","source":"engine"})");
  const LoggedOutsideMove m = outside_move_from_entry(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(m.uci, "e7e5");
  EXPECT_EQ(m.source, "engine");
  EXPECT_TRUE(known_record_type("outside-move"));
  nlohmann::json bad = nlohmann::json::parse(j.dump());
  bad.erase("source");
  EXPECT_THROW(outside_move_from_entry(bad), chess::ParseError);
  bad["source"] = "";
  EXPECT_THROW(outside_move_from_entry(bad), chess::ParseError);
  bad["source"] = "engine";
  bad["uci"] = 5;
  EXPECT_THROW(outside_move_from_entry(bad), chess::ParseError);
}

TEST(OutsideMove, ASeatingThatTakesItMakesItAsAMoveOnAnotherBoard) {
  SeatedTable t(outside_opponent());
  t.move(A, 1000, "e2", "e4").press(A, 1200);
  t.forget();
  t.outside(5000, "e7e5");
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_THAT(kinds(t), ElementsAre("made"));
  EXPECT_EQ(t.of<game::Moment>()[0].uci, "e7e5");
  EXPECT_EQ(t.of<game::Moment>()[0].san, "e5");
  ASSERT_EQ(t.count<game::SwitchClock>(), 1u);
  EXPECT_EQ(t.of<game::SwitchClock>()[0].running, chess::White);
  EXPECT_EQ(t.s().clock()->running(), chess::White);
  // Black's clock ran from White's move at 1200 to the outside move at 5000.
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5000), 600'000 - 3'800);
  EXPECT_THAT(t.spoken(A), ElementsAre("Pawn Eva five"));
  // The player's board reads his next move from the position after it.
  t.move(A, 6000, "g1", "f3").press(A, 6200);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
}

TEST(OutsideMove, OneTheSeatingOrTheGameDoesNotTakeIsRefusedSaidAndLogged) {
  SeatedTable t(outside_opponent());
  t.outside(500, "e2e4");  // White's turn: the player's, not the engine's
  t.move(A, 1000, "e2", "e4").press(A, 1200);
  t.outside(2000, "e7e6", "network");  // not from the engine
  t.outside(2100, "e7e4");             // no legal move
  t.outside(2200, "banana");
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
  const std::vector<game::Moment> refused = t.of<game::Moment>();
  std::vector<std::string> said;
  for (const game::Moment& o : refused)
    if (o.moment.kind == board::MomentKind::Irregularity)
      said.push_back(std::string(board::irregularity_name(o.moment.irregularity)) + " " + o.uci);
  EXPECT_THAT(said, ElementsAre("outside-move-refused e2e4", "outside-move-refused e7e6",
                                "outside-move-refused ", "outside-move-refused "));
  EXPECT_EQ(t.count<game::Alarm>(), 4u);
  EXPECT_EQ(t.s().clock()->running(), chess::Black);  // nothing changed
  const Session& s = t.s();
  EXPECT_EQ(s.outside_move_refusal("e7e6", "network"), "only the engine's moves");
  EXPECT_THAT(s.outside_move_refusal("e7e4", "engine"), HasSubstr("'e7e4' is not a legal move"));
  EXPECT_EQ(s.outside_move_refusal("e7e5", "engine"), "");
  // The log says each, its record before what it made.
  EXPECT_THAT(t.log_text(), HasSubstr(R"("type":"outside-move","uci":"e7e6","source":"network")"));
  EXPECT_THAT(t.log_text(), HasSubstr(R"("kind":"irregularity","move":"e7e6")"));
  EXPECT_THAT(t.log_text(), HasSubstr(R"("irregularity":"outside-move-refused")"));
}

TEST(OutsideMove, TheSeatingsOnTheBoardsAloneRefuseItAndSaySo) {
  for (const char* name : {"one-board", "sighted", "two-boards"}) {
    SessionConfig c = SeatedTable::config(name);
    c.language = record::Language::English;
    SeatedTable t(c);
    EXPECT_THAT(t.s().outside_move_refusal("e2e4", "engine"),
                HasSubstr("this seating takes its moves from the boards only"))
        << name;
    t.outside(1000, "e2e4");
    EXPECT_TRUE(t.moves().empty()) << name;
    EXPECT_EQ(t.count<game::Alarm>(A), 1u) << name;
    EXPECT_THAT(t.spoken(A), ElementsAre("Move from outside refused")) << name;
    // The game goes on from the board as before.
    t.move(A, 2000, "e2", "e4").press(A, 2200);
    EXPECT_THAT(t.moves(), ElementsAre("e2e4")) << name;
  }
}

TEST(OutsideMove, TheGameRefusesItWhenItIsNotBeingPlayed) {
  SessionConfig c = outside_opponent();
  c.wait_for_start = true;
  Session s(c);
  EXPECT_EQ(s.outside_move_refusal("e2e4", "engine"), "the game has not begun");
  std::vector<Output> out;
  s.start(0, out);
  EXPECT_EQ(s.outside_move_refusal("e2e4", "engine"), "the clock has not been started");
  ArbiterCommand command;
  command.kind = ArbiterCommand::Kind::Start;
  s.on_arbiter(10, command, out);
  EXPECT_EQ(s.outside_move_refusal("e2e4", "engine"), "not the engine's turn");
  command.kind = ArbiterCommand::Kind::Pause;
  s.on_arbiter(20, command, out);
  EXPECT_EQ(s.outside_move_refusal("e2e4", "engine"), "the game is paused");
}

TEST(OutsideMove, ALogWithOutsideMovesIsReplayedAndResumedAsItWasPlayed) {
  // Sighted: the move from outside is refused, and that is in the log; resume feeds the
  // record to the session again and the session's records must be the logged ones.
  SessionConfig c = SeatedTable::config("sighted");
  SeatedTable t(c);
  t.outside(800, "e2e4", "script").move(A, 1000, "e2", "e4").press(A, 1200);
  t.outside(1500, "e7e5");
  t.move(A, 2000, "e7", "e5").advance(4000);
  ASSERT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  const LogReplay replay = replay_log(t.log_text());
  EXPECT_TRUE(replay.differences.empty()) << replay.differences.front().why;
  EXPECT_GT(replay.compared, 0u);
  const ResumedGame g = resume_from_log(t.log_text());
  EXPECT_EQ(g.session.record().moves.size(), 2u);
  EXPECT_EQ(g.session.last_spoken(), t.s().last_spoken());
  // The follower of a growing log (the hall, the publisher) reads the same.
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < t.log_text().size();) {
    const std::size_t end = t.log_text().find('\n', at);
    lines.push_back(t.log_text().substr(at, end - at));
    at = end + 1;
  }
  LogFollower f(lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) f.add(lines[i]);
  EXPECT_EQ(f.game().session.record().moves.size(), 2u);
  // A log whose refusal record was changed is caught: the events make another.
  std::string changed = t.log_text();
  const std::size_t at = changed.find(R"("source":"script")");
  ASSERT_NE(at, std::string::npos);
  // (a change breaks the chain too; replay_log checks the chain first)
  changed.replace(at, 17, R"("source":"enginx")");
  EXPECT_THROW(replay_log(changed), chess::ParseError);
}

}  // namespace
}  // namespace tactile::game
