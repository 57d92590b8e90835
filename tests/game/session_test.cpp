// SPDX-License-Identifier: GPL-3.0-or-later
// The game session: moments to commands, the clock switched only when a move is made,
// %clk in the record, flag fall and game end, the time and repeat buttons.
#include "core/game/session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/game/seatings.h"
#include "core/record/move_phrase.h"

namespace tactile::game {
namespace {
using ::testing::HasSubstr;

class Table {
 public:
  explicit Table(SessionConfig c) : s_(std::move(c)) { s_.start(0, out_); }
  static SessionConfig config(const char* tc, const char* fen = nullptr,
                              board::Completion mode = board::Completion::Button) {
    SessionConfig c;
    c.seating = &default_seating();
    if (fen) c.start = chess::Position::from_fen(fen);
    if (tc) c.time_control = clock::parse_time_control(tc);
    c.recognizer.completion = mode;
    return c;
  }
  Table& up(std::int64_t ms, const char* sq) {
    s_.on_hole(0, {ms, chess::parse_square(sq), board::Hole::Up}, out_);
    return *this;
  }
  Table& down(std::int64_t ms, const char* sq) {
    s_.on_hole(0, {ms, chess::parse_square(sq), board::Hole::Down}, out_);
    return *this;
  }
  Table& press(std::int64_t ms, board::Button b = board::Button::Announce) {
    s_.on_button(0, {ms, b}, out_);
    return *this;
  }
  template <typename Kind>
  std::vector<Kind> of() const {
    std::vector<Kind> r;
    for (const Output& o : out_)
      if (const Kind* k = std::get_if<Kind>(&o)) r.push_back(*k);
    return r;
  }
  std::vector<std::string> spoken() const {
    std::vector<std::string> r;
    for (const Speak& o : of<Speak>()) r.push_back(o.text);
    return r;
  }
  Session& s() { return s_; }
  std::vector<Output>& out() { return out_; }

 private:
  Session s_;
  std::vector<Output> out_;
};

TEST(Session, WhitesClockRunsFromTheStart) {
  Table t(Table::config("60+1"));
  ASSERT_EQ(t.of<SwitchClock>().size(), 1u);
  EXPECT_EQ(t.of<SwitchClock>()[0].running, chess::White);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 10000), 50000);
}

TEST(Session, ClockSwitchesOnlyWhenTheMoveIsMadeAndClkIsRecorded) {
  Table t(Table::config("60+1"));
  t.up(1000, "e2").down(1200, "e4");
  EXPECT_EQ(t.of<SwitchClock>().size(), 1u);  // not yet: not announced
  t.press(1300);
  ASSERT_EQ(t.of<SwitchClock>().size(), 2u);
  EXPECT_EQ(t.of<SwitchClock>()[1].running, chess::Black);
  EXPECT_EQ(t.of<SwitchClock>()[1].ms, 1300);
  t.up(3000, "e7").down(5000, "e5").press(5300);
  // White: 60 - 1.3 + 1 = 59.7 s; Black: 60 - (5.3 - 1.3) + 1 = 57 s.
  const chess::PgnGame& g = t.s().record();
  ASSERT_EQ(g.moves.size(), 2u);
  EXPECT_EQ(g.moves[0].comment, "[%clk 0:00:59]");
  EXPECT_EQ(g.moves[1].comment, "[%clk 0:00:57]");
  EXPECT_EQ(g.tag("TimeControl"), "60+1");
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5300), 57000);
  EXPECT_THAT(t.spoken(), ::testing::ElementsAre("Bauer Eva vier", "Bauer Eva fuenf"));
}

TEST(Session, IllegalAttemptNeverSwitchesTheClock) {
  Table t(Table::config("60+1"));
  t.up(1000, "e2").down(1200, "e5").press(1300);
  EXPECT_EQ(t.of<SwitchClock>().size(), 1u);
  // What was seen and what to do (issue 29), also for the braille display.
  ASSERT_EQ(t.of<Speak>().size(), 1u);
  EXPECT_EQ(t.of<Speak>()[0].text,
            "Unzulaessig: Bauer " + record::square_words(chess::E2, record::Language::German) +
                " nach " + record::square_words(chess::E5, record::Language::German) +
                ". Zurueck auf " + record::square_words(chess::E2, record::Language::German) + ".");
  EXPECT_EQ(t.of<Speak>()[0].shown, Speak::Shown::UntilMoveOrKey);
  ASSERT_EQ(t.of<LightSquares>().size(), 1u);
  EXPECT_EQ(t.of<LightSquares>()[0].squares,
            chess::square_bb(chess::E2) | chess::square_bb(chess::E5));
  t.up(2000, "e5").down(2200, "e4").press(2300);
  EXPECT_EQ(t.of<SwitchClock>().size(), 2u);
  EXPECT_EQ(t.s().moves_made(), 1);
  // White's time ran through the illegal attempt: 60 - 2.3 + 1.
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 2300), 58700);
}

TEST(Session, PendingReadingWaitsForConfirmationBeforeTheClock) {
  Table t(Table::config("60+0", "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  t.up(1000, "e7").down(1200, "e8").press(1300);
  EXPECT_EQ(t.of<SwitchClock>().size(), 1u);
  EXPECT_THAT(t.spoken().back(), HasSubstr("Dame"));
  t.press(1500, board::Button::Correct);
  EXPECT_THAT(t.spoken().back(), HasSubstr("Turm"));
  t.press(1700);
  EXPECT_EQ(t.of<SwitchClock>().size(), 2u);
  EXPECT_EQ(chess::to_uci(chess::Position::from_fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"),
                          t.s().record().moves[0].move),
            "e7e8r");
  EXPECT_THAT(t.spoken().back(), HasSubstr("Korrigiert"));
}

TEST(Session, APendingReadingIsAskedAsAQuestionAndWaitsUntilHeard) {
  Table t(Table::config("300+0", "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1", board::Completion::Auto));
  t.up(1000, "e7").down(1200, "e8");
  t.s().advance(2200, t.out());  // still for the settle time: the default queen is asked
  const std::vector<Speak> said = t.of<Speak>();
  ASSERT_EQ(said.size(), 1u);
  // A question, not the statement the made move gets ("Bauer Eva acht wird Dame Schach").
  EXPECT_EQ(said[0].text, "Bauer Eva acht wird Dame Schach? Richtig?");
  EXPECT_EQ(said[0].question, 1);
  // A braille-only player must answer it while his clock runs: on his display too.
  EXPECT_EQ(said[0].shown, Speak::Shown::UntilMoveOrKey);
  EXPECT_EQ(t.s().unheard_question(), 1);
  t.s().advance(60000 - 1, t.out());  // never confirmed while it is being said
  EXPECT_EQ(t.of<SwitchClock>().size(), 1u);
  t.s().heard(0, 1, 59000, t.out());
  EXPECT_EQ(t.s().unheard_question(), 0);
  EXPECT_EQ(t.s().next_deadline(), 60000);  // a settle time after it was heard
  t.s().advance(59999, t.out());
  EXPECT_EQ(t.of<SwitchClock>().size(), 1u);
  t.s().advance(60000, t.out());
  EXPECT_EQ(t.of<SwitchClock>().size(), 2u);
}

TEST(Session, AReportOfAnOlderQuestionChangesNothing) {
  Table t(Table::config(nullptr, "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1", board::Completion::Auto));
  t.up(1000, "e7").down(1200, "e8");
  t.s().advance(2200, t.out());
  t.press(2500, board::Button::Correct);  // the rook asked: question 2
  EXPECT_EQ(t.of<Speak>().back().question, 2);
  t.s().heard(0, 1, 4000, t.out());  // the first question's end
  t.s().advance(20000, t.out());
  EXPECT_EQ(t.s().moves_made(), 0);
  t.s().heard(0, 2, 21000, t.out());
  t.s().advance(21999, t.out());
  EXPECT_EQ(t.s().moves_made(), 0);
  t.s().advance(22000, t.out());
  EXPECT_EQ(t.s().moves_made(), 1);
  EXPECT_THAT(t.spoken().back(), HasSubstr("Korrigiert"));
}

TEST(Session, FlagFallLosesOnTime) {
  Table t(Table::config("10+0"));
  EXPECT_EQ(t.s().next_deadline(), 10000);
  t.s().advance(9999, t.out());
  EXPECT_FALSE(t.s().over());
  t.s().advance(10000, t.out());
  ASSERT_TRUE(t.s().over());
  ASSERT_EQ(t.of<GameOver>().size(), 1u);
  EXPECT_EQ(t.of<GameOver>()[0].result, "0-1");
  EXPECT_EQ(t.of<GameOver>()[0].ms, 10000);
  EXPECT_EQ(t.s().record().result, "0-1");
  EXPECT_EQ(t.s().record().tag("Termination"), "time forfeit");
  EXPECT_THAT(t.spoken().back(), HasSubstr("Weiss hat die Zeit ueberschritten"));
  // Nothing is read after the end.
  t.up(11000, "e2").down(11200, "e4").press(11300);
  EXPECT_EQ(t.s().moves_made(), 0);
}

TEST(Session, FlagFallIsADrawWhenTheOpponentCannotMate) {
  // Black (king and queen) lets his flag fall; White has a bare king: Art. 6.9, a draw.
  Table t(Table::config("10+0", "4k2q/8/8/8/8/8/8/4K3 w - - 0 1"));
  t.up(1000, "e1").down(1200, "d2").press(1300);
  EXPECT_EQ(t.s().next_deadline(), 11300);
  t.up(20000, "h8");  // the session first handles the flag that fell before this event
  ASSERT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "1/2-1/2");
  EXPECT_EQ(t.of<GameOver>()[0].ms, 11300);
  EXPECT_EQ(t.s().record().tag("Termination"), "time forfeit");
}

TEST(Session, FlagOfTheSideThatCanBeMatedLoses) {
  Table t(Table::config("10+0", "4k2q/8/8/8/8/8/8/4K3 w - - 0 1"));
  t.s().advance(10000, t.out());
  ASSERT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "0-1");
}

TEST(Session, AutoModeChargesTheSettleTime) {
  Table t(Table::config("60+0", nullptr, board::Completion::Auto));
  t.up(1000, "d2").down(1400, "d4");
  EXPECT_EQ(t.s().next_deadline(), 2400);
  t.s().advance(2400, t.out());
  ASSERT_EQ(t.s().moves_made(), 1);
  EXPECT_EQ(t.s().record().moves[0].comment, "[%clk 0:00:57]");  // 60 - 2.4
}

TEST(Session, CheckmateEndsTheGame) {
  Table t(Table::config(nullptr, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
  t.up(1000, "a1").down(1200, "a8").press(1300);
  ASSERT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "1-0");
  EXPECT_EQ(t.of<GameOver>()[0].reason, "checkmate");
  EXPECT_THAT(t.spoken(), ::testing::ElementsAre("Turm Anna acht Matt", "Weiss gewinnt"));
}

TEST(Session, StalemateIsADraw) {
  Table t(Table::config(nullptr, "k7/8/1Q6/8/8/8/8/6K1 w - - 0 1"));
  t.up(1000, "b6").down(1200, "c7").press(1300);
  ASSERT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "1/2-1/2");
}

TEST(Session, TimeButtonSpeaksBothClocksAndTheMoves) {
  Table t(Table::config("3600+0"));
  t.up(1000, "e2").down(1200, "e4").press(2000);
  t.up(3000, "e7").down(3200, "e5").press(62000);
  t.press(62000, board::Button::Time);
  EXPECT_EQ(t.spoken().back(),
            "Weiss neunundfuenfzig Minuten, Schwarz neunundfuenfzig Minuten, ein Zug, "
            "Weiss am Zug, Uhr laeuft");
  // Repeat after the time says the last move again (issue 29), not the time.
  t.press(63000, board::Button::Repeat);
  EXPECT_EQ(t.spoken().back(), "Bauer Eva fuenf");
  EXPECT_EQ(t.of<SwitchClock>().size(), 3u);  // buttons never touch the clock
}

// Issue 29: whose move, running or stopped, and the moves to the time control.
TEST(Session, TimeButtonSaysWhoseMoveWhetherTheClockRunsAndMovesToTheControl) {
  SessionConfig c = Table::config("40/5400+30:1800+30");
  c.language = record::Language::English;
  Table t(c);
  t.up(1000, "e2").down(1200, "e4").press(2000);
  t.press(3000, board::Button::Time);
  EXPECT_EQ(t.spoken().back(),
            "White one hour thirty minutes, Black one hour twenty-nine minutes, one move, "
            "Black to move, clock running, forty moves to the time control");
  t.up(4000, "e7").down(4200, "e5").press(5000);
  ArbiterCommand pause;
  pause.kind = ArbiterCommand::Kind::Pause;
  t.s().on_arbiter(6000, pause, t.out());
  t.press(7000, board::Button::Time);
  EXPECT_THAT(t.spoken().back(),
              HasSubstr("White to move, clock stopped, thirty-nine moves to the time control"));
}

// Issue 29: a clock started by the arbiter's start (live: the game waits for it) is said
// on the board, with whose move it is.
TEST(Session, TheArbitersStartIsSaid) {
  SessionConfig c = Table::config("300+2");
  c.wait_for_start = true;
  c.language = record::Language::English;
  Table t(c);
  EXPECT_TRUE(t.spoken().empty());
  ArbiterCommand start;
  start.kind = ArbiterCommand::Kind::Start;
  t.s().on_arbiter(5000, start, t.out());
  EXPECT_THAT(t.spoken(), ::testing::ElementsAre("Clock started, White to move"));
}

TEST(Session, TimeButtonWithoutAClockCountsMoves) {
  Table t(Table::config(nullptr));
  t.press(100, board::Button::Time);
  EXPECT_EQ(t.spoken().back(), "null Zuege");
}

TEST(Session, EnglishAndRussianAnnouncements) {
  SessionConfig en = Table::config(nullptr);
  en.language = record::Language::English;
  Table e(en);
  e.up(1000, "g1").down(1200, "f3").press(1300);
  EXPECT_EQ(e.spoken().back(), "Knight Felix three");
  SessionConfig ru = Table::config(nullptr);
  ru.language = record::Language::Russian;
  Table r(ru);
  r.up(1000, "g1").down(1200, "f3").press(1300);
  EXPECT_EQ(r.spoken().back(), "Конь Феликс три");
}

}  // namespace
}  // namespace tactile::game
