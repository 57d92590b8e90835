// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's commands on a session: the clock waiting for start, pause and resume,
// set-time, take-back (1.16.3), rollback with the 12.6 split, result, adjournment; and the
// commands' JSON form, which the control socket and the log share.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/game/arbiter.h"
#include "core/game/arbiter_words.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"
#include "core/game/seatings.h"
#include "core/game/session.h"
#include "core/record/arbiter_log.h"

namespace tactile::game {
namespace {
using Kind = ArbiterCommand::Kind;
using chess::Black;
using chess::White;
using ::testing::HasSubstr;

ArbiterCommand command(Kind k) {
  ArbiterCommand c;
  c.kind = k;
  return c;
}

// A session on one board, every event and command also written to a log as the daemon
// writes it, so that a test can resume the game from that log.
class Game {
 public:
  explicit Game(const char* tc, bool wait_for_start = false) : s_(config(tc, wait_for_start)) {
    log_ += record_line(start_entry(0, config(tc, wait_for_start)));
    s_.start(0, out_);
  }
  static SessionConfig config(const char* tc, bool wait) {
    SessionConfig c;
    c.seating = &default_seating();
    if (tc) c.time_control = clock::parse_time_control(tc);
    c.wait_for_start = wait;
    return c;
  }
  Game& up(std::int64_t ms, const char* sq) { return hole(ms, sq, board::Hole::Up); }
  Game& down(std::int64_t ms, const char* sq) { return hole(ms, sq, board::Hole::Down); }
  Game& hole(std::int64_t ms, const char* sq, board::Hole h) {
    const board::HoleEvent e{ms, chess::parse_square(sq), h};
    log_ += record_line(hole_entry(0, e));
    s_.on_hole(0, e, out_);
    return *this;
  }
  Game& press(std::int64_t ms) {
    const board::ButtonEvent e{ms, board::Button::Announce};
    log_ += record_line(button_entry(0, e));
    s_.on_button(0, e, out_);
    return *this;
  }
  // A move made on the board and announced.
  Game& move(std::int64_t ms, const char* from, const char* to) {
    return up(ms, from).down(ms + 100, to).press(ms + 200);
  }
  std::string arbiter(std::int64_t ms, const ArbiterCommand& c) {
    std::string why = s_.arbiter_refusal(c);
    if (!why.empty()) return why;
    log_ += record_line(arbiter_entry(ms, c, 0));
    s_.on_arbiter(ms, c, out_);
    return "";
  }
  std::vector<std::string> spoken() const {
    std::vector<std::string> r;
    for (const Output& o : out_)
      if (const auto* said = std::get_if<Speak>(&o)) r.push_back(said->text);
    return r;
  }
  std::int64_t left(chess::Color c, std::int64_t ms) const {
    return s_.clock()->remaining_ms(c, ms);
  }
  Session& s() { return s_; }
  const std::string& log() const { return log_; }
  std::vector<Output>& out() { return out_; }

 private:
  std::string record_line(const LogEntry& j) { return chain_.line(j) + "\n"; }
  record::ArbiterLog chain_;
  Session s_;
  std::vector<Output> out_;
  std::string log_;
};

TEST(ArbiterJson, EveryCommandReadsBackFromItsJson) {
  ArbiterCommand set = command(Kind::SetTime);
  set.white_ms = 600000;
  set.black_ms = 30000;
  set.moves = 12;
  ArbiterCommand roll = command(Kind::Rollback);
  roll.number = 7;
  ArbiterCommand result = command(Kind::Result);
  result.result = "1/2-1/2";
  result.reason = "agreement";
  for (const ArbiterCommand& c : {command(Kind::Start), command(Kind::Pause), command(Kind::Resume),
                                  set, command(Kind::Takeback), roll, result,
                                  command(Kind::Adjourn), command(Kind::ResumeAdjourned)}) {
    const nlohmann::json j = nlohmann::json::parse(arbiter_command_json(c).dump());
    EXPECT_EQ(arbiter_command_from_json(j), c) << j.dump();
  }
}

TEST(ArbiterJson, BadRequestsAreRefusedWithTheField) {
  auto why = [](const char* text) {
    try {
      arbiter_command_from_json(nlohmann::json::parse(text));
    } catch (const chess::ParseError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(why(R"({"command":"explode"})"), HasSubstr("'explode' is not"));
  EXPECT_THAT(why(R"({"cmd":"pause"})"), HasSubstr("command: missing"));
  EXPECT_THAT(why(R"([1,2])"), HasSubstr("not a JSON object"));
  EXPECT_THAT(why(R"({"command":"set-time","white_ms":1})"), HasSubstr("black_ms"));
  EXPECT_THAT(why(R"({"command":"set-time","white_ms":-5,"black_ms":1})"),
              HasSubstr("white_ms: -5"));
  EXPECT_THAT(why(R"({"command":"rollback","number":"3"})"), HasSubstr("number"));
  EXPECT_THAT(why(R"({"command":"result","result":"2-0"})"), HasSubstr("'2-0'"));
}

TEST(Arbiter, LiveClockWaitsForTheStartCommand) {
  Game g("60+0", true);
  EXPECT_FALSE(g.s().clock_started());
  EXPECT_EQ(g.s().next_deadline(), board::kNoDeadline);  // no flag can fall
  EXPECT_EQ(g.arbiter(5000, command(Kind::Start)), "");
  EXPECT_TRUE(g.s().clock_started());
  EXPECT_EQ(g.left(White, 15000), 50000);  // White's clock from 5 s, not from 0
  EXPECT_THAT(g.arbiter(16000, command(Kind::Start)), HasSubstr("started already"));
}

TEST(Arbiter, AnnouncePressOnTheStartPositionStartsTheClock) {
  Game g("60+0", true);
  g.up(1000, "e2").down(1100, "e2");  // touched and put back: still the start position
  g.press(2000);
  EXPECT_TRUE(g.s().clock_started());
  EXPECT_EQ(g.s().moves_made(), 0);
  EXPECT_EQ(g.left(White, 3000), 59000);
}

TEST(Arbiter, AnnouncePressWithAMoveOnTheBoardDoesNotStartTheClock) {
  Game g("60+0", true);
  g.up(1000, "e2").down(1100, "e4").press(1200);
  EXPECT_FALSE(g.s().clock_started());
}

TEST(Arbiter, PauseStopsBothClocksAndResumeGoesOn) {
  Game g("60+0");
  g.move(1000, "e2", "e4");  // made at 1.2 s: Black's clock runs
  EXPECT_EQ(g.arbiter(3000, command(Kind::Pause)), "");
  EXPECT_TRUE(g.s().paused());
  EXPECT_EQ(g.left(Black, 30000), 58200);
  EXPECT_THAT(g.arbiter(4000, command(Kind::Pause)), HasSubstr("paused already"));
  EXPECT_EQ(g.arbiter(30000, command(Kind::Resume)), "");
  EXPECT_EQ(g.left(Black, 31000), 57200);
  EXPECT_THAT(g.spoken(), ::testing::Contains(HasSubstr("angehalten")));
}

TEST(Arbiter, SetTimeSetsBothClocksAndTheMoveCounts) {
  Game g("40/5400+30:1800");
  g.move(1000, "e2", "e4");
  ArbiterCommand c = command(Kind::SetTime);
  c.white_ms = 600000;
  c.black_ms = 120000;
  c.moves = 39;
  EXPECT_EQ(g.arbiter(2000, c), "");
  EXPECT_EQ(g.left(White, 2000), 600000);
  EXPECT_EQ(g.left(Black, 3000), 119000);
  EXPECT_EQ(g.s().clock()->moves_completed(White), 39);
  EXPECT_EQ(g.s().clock()->moves_completed(Black), 38);  // Black on move
}

TEST(Arbiter, TakebackReturnsTheMoveAndTheTimeToTheOffender) {
  Game g("60+2");
  g.move(1000, "e2", "e4");  // made at 1.2 s, +2 s increment
  EXPECT_EQ(g.arbiter(5000, command(Kind::Takeback)), "");
  EXPECT_EQ(g.s().moves_made(), 0);
  EXPECT_EQ(g.s().position().side_to_move(), White);
  // White's clock has run all the time since 0 and his increment is gone; Black gets
  // back his 3.8 s.
  EXPECT_EQ(g.left(White, 5000), 55000);
  EXPECT_EQ(g.left(Black, 5000), 60000);
  // The board still shows e4: nothing is read until the pawn is back on e2.
  EXPECT_EQ(g.s().restoring(), chess::square_bb(chess::E2) | chess::square_bb(chess::E4));
  g.move(6000, "d2", "d4");
  EXPECT_EQ(g.s().moves_made(), 0);
  g.up(7000, "d4").down(7100, "d2").up(7200, "e4").down(7300, "e2");
  EXPECT_EQ(g.s().restoring(), 0u);
  g.move(8000, "d2", "d4");
  ASSERT_EQ(g.s().moves_made(), 1);
  EXPECT_EQ(chess::to_uci(chess::Position(), g.s().record().moves[0].move), "d2d4");
  EXPECT_THAT(g.arbiter(9000, command(Kind::Takeback)), ::testing::IsEmpty());
  EXPECT_THAT(g.arbiter(9000, command(Kind::Takeback)), HasSubstr("no move"));
}

TEST(Arbiter, RollbackSplitsTheTimeUsedByRule12_6) {
  Game g("5400+0");
  // Four moves each; White uses 4 x 10 s, Black 4 x 20 s.
  std::int64_t t = 0;
  const char* moves[8][2] = {{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"b8", "c6"},
                             {"f1", "c4"}, {"g8", "f6"}, {"d2", "d3"}, {"f8", "c5"}};
  for (int i = 0; i < 8; ++i) {
    t += i % 2 == 0 ? 10000 : 20000;
    g.move(t - 200, moves[i][0], moves[i][1]);
  }
  ASSERT_EQ(g.s().moves_made(), 8);
  ASSERT_EQ(g.left(White, t), 5400000 - 40000);
  ArbiterCommand c = command(Kind::Rollback);
  c.number = 2;
  EXPECT_EQ(g.arbiter(t, c), "");
  EXPECT_EQ(g.s().moves_made(), 4);
  EXPECT_EQ(g.s().position().fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  // 12.6: time used x 2/4.
  EXPECT_EQ(g.left(White, t), 5400000 - 20000);
  EXPECT_EQ(g.left(Black, t), 5400000 - 40000);
  EXPECT_EQ(g.s().clock()->running(), White);
  c.number = 3;  // no longer in the game
  EXPECT_THAT(g.arbiter(t, c), HasSubstr("not in the game"));
}

TEST(Arbiter, ResultEndsTheGameAndIsSpoken) {
  Game g("60+0");
  g.move(1000, "e2", "e4");
  ArbiterCommand c = command(Kind::Result);
  c.result = "0-1";
  c.reason = "resignation";
  EXPECT_EQ(g.arbiter(2000, c), "");
  EXPECT_TRUE(g.s().over());
  EXPECT_EQ(g.s().record().result, "0-1");
  EXPECT_EQ(g.s().record().tag("Termination"), "resignation");
  EXPECT_THAT(g.spoken().back(), HasSubstr("Schwarz gewinnt"));
  EXPECT_THAT(g.arbiter(3000, command(Kind::Pause)), HasSubstr("over"));
}

TEST(Arbiter, AdjournmentSealsTheMoveUnannouncedAndResumptionPlaysIt) {
  Game g("60+5");
  g.move(1000, "e2", "e4");  // Black's clock from 1.2 s
  EXPECT_EQ(g.arbiter(2000, command(Kind::Adjourn)), "");
  EXPECT_TRUE(g.s().sealing());
  const std::size_t said = g.spoken().size();
  g.move(5000, "c7", "c5");  // Black's sealed move, made at 5.2 s
  EXPECT_FALSE(g.s().sealing());
  ASSERT_TRUE(g.s().adjourned());
  EXPECT_EQ(g.s().moves_made(), 1);  // not in the record
  EXPECT_EQ(g.s().sealed()->san, "c5");
  EXPECT_EQ(g.s().sealed()->envelope.sealer, Black);
  EXPECT_EQ(g.s().sealed()->envelope.remaining_ms[Black], 56000);
  EXPECT_EQ(g.s().sealed()->move_number, 1);
  ASSERT_EQ(g.spoken().size(), said + 1);  // only "adjourned", never the move
  EXPECT_THAT(g.spoken().back(), ::testing::Not(HasSubstr("Caesar")));
  EXPECT_FALSE(g.s().clock()->running_any());
  // The board is cleared; nothing is read while adjourned.
  g.up(60000, "c5").down(60100, "c7");
  g.move(61000, "d7", "d5");
  EXPECT_EQ(g.s().moves_made(), 1);
  g.up(62000, "d5").down(62100, "d7");
  EXPECT_THAT(g.arbiter(63000, command(Kind::Adjourn)), HasSubstr("adjourned already"));
  EXPECT_EQ(g.arbiter(100000, command(Kind::ResumeAdjourned)), "");
  EXPECT_EQ(g.left(Black, 200000), 56000);  // nothing runs until the sealed move is made
  g.move(200000, "c7", "c5");               // 14.2
  ASSERT_EQ(g.s().moves_made(), 2);
  EXPECT_THAT(g.spoken().back(), HasSubstr("Caesar fuenf"));
  EXPECT_EQ(g.left(Black, 210000), 61000);  // +5 s increment, nothing charged meanwhile
  // White's clock runs from the sealed move: 60 - 1.2 + 5 = 63.8 s, less 10 s.
  EXPECT_EQ(g.left(White, 210200), 53800);
}

TEST(Arbiter, OnlyTheSealedMoveIsAcceptedAtResumption) {
  Game g("60+0");
  g.move(1000, "e2", "e4");
  g.arbiter(2000, command(Kind::Adjourn));
  g.move(3000, "c7", "c5");
  g.up(4000, "c5").down(4100, "c7");
  g.arbiter(5000, command(Kind::ResumeAdjourned));
  g.move(6000, "e7", "e5");
  EXPECT_EQ(g.s().moves_made(), 1);
  EXPECT_THAT(g.spoken().back(), HasSubstr("Stellung"));
  g.up(7000, "e5").down(7100, "e7");
  g.move(8000, "c7", "c5");
  EXPECT_EQ(g.s().moves_made(), 2);
}

TEST(Arbiter, ResumeFromTheLogReappliesTheArbitersRecords) {
  Game g("60+2", true);
  g.arbiter(500, command(Kind::Start));
  g.move(1000, "e2", "e4");
  g.move(2000, "e7", "e5");
  g.arbiter(3000, command(Kind::Pause));
  ArbiterCommand set = command(Kind::SetTime);
  set.white_ms = 42000;
  set.black_ms = 43000;
  g.arbiter(4000, set);
  g.arbiter(5000, command(Kind::Resume));
  g.move(6000, "g1", "f3");
  g.arbiter(7000, command(Kind::Takeback));
  g.up(8000, "f3").down(8100, "g1");
  ResumedGame r = resume_from_log(g.log());
  EXPECT_EQ(r.session.moves_made(), g.s().moves_made());
  EXPECT_EQ(r.session.position(), g.s().position());
  EXPECT_EQ(r.session.clock()->reading(9000), g.s().clock()->reading(9000));
  EXPECT_EQ(r.session.restoring(), 0u);
  // White's clock has run since the resume at 5 s, the taken-back increment gone.
  EXPECT_EQ(r.session.clock()->remaining_ms(White, 9000), 42000 - 4000);
}

// An arbiter's command in words, as an event script's line gives it: read as tactilectl
// sends it, and each fault said.
TEST(ArbiterWords, ReadEveryCommand) {
  const ArbiterCommand rollback = arbiter_command_from_words("rollback 12");
  EXPECT_EQ(rollback.kind, Kind::Rollback);
  EXPECT_EQ(rollback.number, 12);
  const ArbiterCommand set = arbiter_command_from_words("set-time\t1:30:00  0:45 20");
  EXPECT_EQ(set.kind, Kind::SetTime);
  EXPECT_EQ(set.white_ms, 5400000);
  EXPECT_EQ(set.black_ms, 45000);
  EXPECT_EQ(set.moves, 20);
  const ArbiterCommand result = arbiter_command_from_words("result 1/2-1/2 agreement");
  EXPECT_EQ(result.kind, Kind::Result);
  EXPECT_EQ(result.result, "1/2-1/2");
  EXPECT_EQ(result.reason, "agreement");
  EXPECT_EQ(arbiter_command_from_words("pause").kind, Kind::Pause);
  EXPECT_EQ(arbiter_command_from_words("resume-adjourned").kind, Kind::ResumeAdjourned);
}

TEST(ArbiterWords, SayWhatIsWrong) {
  const auto fault = [](std::string_view words) {
    try {
      arbiter_command_from_words(words);
    } catch (const chess::ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(fault(""), HasSubstr("no arbiter command"));
  EXPECT_THAT(fault("resign"), HasSubstr("unknown arbiter command 'resign'"));
  EXPECT_THAT(fault("rollback"), HasSubstr("rollback needs one move number"));
  EXPECT_THAT(fault("rollback -3"), HasSubstr("'-3' is not a whole number"));
  EXPECT_THAT(fault("rollback 2 3"), HasSubstr("rollback needs one move number"));
  EXPECT_THAT(fault("set-time 5:00"), HasSubstr("set-time needs WHITE and BLACK"));
  EXPECT_THAT(fault("set-time 5:61 5:00"), HasSubstr("'5:61' is not H:MM:SS or M:SS"));
  EXPECT_THAT(fault("result 2-0"), HasSubstr("arbiter result: result"));
  EXPECT_THAT(fault("pause now"), HasSubstr("pause takes no arguments"));
}

}  // namespace
}  // namespace tactile::game
