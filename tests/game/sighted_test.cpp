// SPDX-License-Identifier: GPL-3.0-or-later
// A sighted opponent (D.2.5): the tactile board is the blind player's; the sighted
// player's move is made by his clock press, then executed on the tactile board (before
// or after the press), recognised there and confirmed ("Gegner: ...").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/game/resume.h"
#include "core/game/sighted.h"
#include "tests/game/seated_table.h"

namespace tactile::game {
namespace {
using board::Button;
using ::testing::ElementsAre;
using testing::SeatedTable;

SessionConfig sighted(chess::Color player = chess::White) {
  SessionConfig c = SeatedTable::config("sighted");
  testing::set_option(c, "player", colour_name(player));
  return c;
}

TEST(Sighted, APressBeforeTheReproductionStartsTheBlindPlayersClock) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);  // the blind player's own move, as today
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);
  t.press(0, 5000, game::kClockButton);  // the sighted player has played 1... e5 on his board
  ASSERT_EQ(t.count<SwitchClock>(), 3u);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
  EXPECT_EQ(t.of<SwitchClock>().back().ms, 5000);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));  // his move is not on the board yet
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5000), 600000 - 3700);
  // It is executed on the tactile board and recognised there: a confirmation.
  t.move(0, 9000, "e7", "e5").press(0, 9300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(t.count<SwitchClock>(), 3u);  // the press switched it already
  ASSERT_EQ(t.count<Mirrored>(), 1u);
  EXPECT_EQ(t.of<Mirrored>()[0].uci, "e7e5");
  EXPECT_EQ(t.spoken(0).back(), "Gegner: Bauer Eva fuenf");
  EXPECT_EQ(t.s().record().moves[1].comment, "[%clk 0:09:56]");  // Black's time at the press
  // White's clock has run since the press.
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 9300), 600000 - 1300 - 4300);
  t.move(0, 10000, "g1", "f3").press(0, 10300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);
}

// D.2.5: his move is made on his own board (Art. 4.7); the tactile board showing it is
// all tactiled sees of it, so it is made there at once, and his later press only runs
// the clocks (Art. 6.2.1).
TEST(Sighted, AReproductionBeforeThePressIsMadeAtOnceAndThePressRunsTheClocks) {
  SessionConfig c = sighted();
  c.language = record::Language::English;
  SeatedTable t(c);
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.move(0, 3000, "g8", "f6");  // executed before the press: made when the board shows it
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "g8f6"));
  EXPECT_EQ(t.count<Mirrored>(), 1u);
  EXPECT_EQ(t.of<Mirrored>()[0].ms, 3100);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);  // his clock runs on
  t.press(0, 6000, game::kClockButton);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "g8f6"));
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
  EXPECT_EQ(t.of<SwitchClock>().back().ms, 6000);
  EXPECT_EQ(t.count<Mirrored>(), 1u);
  EXPECT_EQ(t.spoken(0).back(), "Opponent: Knight Felix six");
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 6000), 600000 - 4700);
}

// Issue 29: a sighted move shown on the tactile board before his press carries his clock
// when it stopped, at his press and with his increment (lichess, DGT), not his clock when
// the board showed it. 600+5: Black's clock runs from 1.3 s; f6 shown at 3.1 s, his press
// at 6.0 s: 600 - 4.7 + 5 = 600.3 s, "0:10:00" (at the reproduction it was 0:09:58).
TEST(Sighted, AMoveShownBeforeThePressCarriesTheClockAfterThePress) {
  SeatedTable t(SeatedTable::config("sighted", "600+5"));
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.move(0, 3000, "g8", "f6");
  ASSERT_THAT(t.moves(), ElementsAre("e2e4", "g8f6"));
  t.press(0, 6000, game::kClockButton);
  EXPECT_EQ(t.s().record().moves[1].comment, "[%clk 0:10:00]");
  // Pressed first, then shown: his clock at the press (also after the increment).
  t.move(0, 7000, "g1", "f3").press(0, 7300);
  t.press(0, 12000, game::kClockButton);  // Black: 600.3 - 4.7 + 5 = 600.6 s
  t.move(0, 13000, "b8", "c6");
  EXPECT_EQ(t.s().record().moves[3].comment, "[%clk 0:10:00]");
  // Shown, not pressed before the blind player's next move is made: his clock where that
  // move began (the first lift at 20 s: Black runs from 14.3 s, 600.6 - 5.7 = 594.9 s),
  // not where it stands when that move is made, nor at the late press.
  t.move(0, 14000, "f1", "c4").press(0, 14300);
  t.move(0, 16000, "d7", "d6");
  ASSERT_EQ(t.s().record().moves.size(), 6u);
  t.move(0, 20000, "d2", "d3").press(0, 25000);
  ASSERT_EQ(t.s().record().moves.size(), 7u);
  EXPECT_EQ(t.s().record().moves[5].comment, "[%clk 0:09:54]");
  t.press(0, 30000, game::kClockButton);  // late (Art. 6.2.2): the record of d6 stays
  EXPECT_EQ(t.s().record().moves[5].comment, "[%clk 0:09:54]");
}

// Issue 29: the sighted player's press that starts the blind player's clock before his
// move is on the tactile board is said at once, with whose move it is.
TEST(Sighted, APressBeforeTheReproductionIsSaid) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 5000, game::kClockButton);
  EXPECT_EQ(t.spoken(0).back(), "Uhr gestartet, Weiss am Zug");
  t.move(0, 9000, "e7", "e5");
  EXPECT_EQ(t.spoken(0).back(), "Gegner: Bauer Eva fuenf");
}

// In button mode nobody presses announce for the sighted player's move: it is read from
// the tactile board as soon as it shows a legal move that no longer move could extend,
// with no irregularity when the blind player then begins his own move.
TEST(Sighted, TheSightedMoveNeedsNoAnnouncePressInButtonMode) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 4000, game::kClockButton);  // pressed first
  t.up(0, 5000, "e7");
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
  t.down(0, 5100, "e5");  // then put on the board: made at once
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(t.spoken(0).back(), "Gegner: Bauer Eva fuenf");
  t.move(0, 7000, "g1", "f3").press(0, 7300);  // his own move, by his announce press
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  // On the board first, then pressed: made when shown, the press runs the clocks.
  t.move(0, 9000, "b8", "c6");
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3", "b8c6"));
  t.press(0, 12500, game::kClockButton);
  EXPECT_EQ(t.of<SwitchClock>().back().ms, 12500);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
  // The blind player's own moves still wait for his announce press.
  t.move(0, 13000, "f1", "b5").advance(20000);
  EXPECT_EQ(t.moves().size(), 4u);
  t.press(0, 20300);
  EXPECT_EQ(t.moves().size(), 5u);
  for (const Moment& o : t.of<Moment>())
    EXPECT_NE(o.moment.irregularity, board::Irregularity::OwnMoveEarly) << o.ms;
}

// The sighted player's capture, reproduced after his press: the blind player's piece lifted
// out of its hole is the captured one, not his own move begun early.
TEST(Sighted, TheCapturedPieceLiftedOutIsNoOwnMoveBegunEarly) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 2000, game::kClockButton);
  t.move(0, 3000, "d7", "d5").advance(5000);
  t.move(0, 6000, "b1", "c3").press(0, 6300);
  t.press(0, 7000, game::kClockButton);  // 2... dxe4 on his board
  t.up(0, 8000, "e4").up(0, 8200, "d5").down(0, 8400, "e4").advance(10000);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "b1c3", "d5e4"));
  for (const Moment& o : t.of<Moment>())
    EXPECT_NE(o.moment.irregularity, board::Irregularity::OwnMoveEarly) << o.ms;
}

// The sighted player's move put into a wrong hole on the tactile board: nobody made an
// illegal move (his move is on his own board); the hole no move of his explains is a
// discrepancy until put right, then his move is read.
TEST(Sighted, HisMovePutIntoAWrongHoleIsADiscrepancyNotAnIllegalMove) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 2000, game::kClockButton);  // 1... e5 on his board
  t.move(0, 3000, "e7", "a6");           // on the tactile board: the pawn into a6
  t.advance(4200);
  ASSERT_EQ(t.count<Discrepancy>(), 1u);
  const Discrepancy d = t.of<Discrepancy>()[0];
  EXPECT_EQ(d.ms, 4100);
  EXPECT_EQ(d.empty, 0u);
  EXPECT_EQ(d.occupied, chess::square_bb(chess::A6));
  EXPECT_EQ(t.s().discrepancy(0), chess::square_bb(chess::A6));
  EXPECT_THAT(t.spoken(0).back(), ::testing::StartsWith("Brett falsch"));
  for (const Moment& o : t.of<Moment>())
    EXPECT_NE(o.moment.kind, board::MomentKind::Illegal) << o.ms;
  t.move(0, 6000, "a6", "e5").advance(7200);
  EXPECT_EQ(t.count<Resolved>(), 1u);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(t.spoken(0).back(), "Gegner: Bauer Eva fuenf");
}

// Nobody answers a question for the sighted player: his promotion is a queen at once, or
// the piece named by promote-X on the tactile board.
TEST(Sighted, HisPromotionIsAQueenUnlessAPromoteButtonNamesAnother) {
  for (const bool knight : {false, true}) {
    SessionConfig c = sighted();
    c.start = chess::Position::from_fen("4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    SeatedTable t(c);
    t.press(0, 1000, game::kClockButton);
    t.up(0, 2000, "a2");
    if (knight) t.press(0, 2050, Button::PromoteKnight);
    t.down(0, 2100, "a1").advance(3200);
    EXPECT_THAT(t.moves(), ElementsAre(knight ? "a2a1n" : "a2a1q"));
    for (const Moment& o : t.of<Moment>())
      EXPECT_NE(o.moment.kind, board::MomentKind::Pending) << o.ms;
  }
}

// His mating move is made by his press: the game ended then, and the blind player's clock,
// running since the press, stands as it was at that moment.
TEST(Sighted, HisMateEndsTheGameAtHisPress) {
  SessionConfig c = sighted();
  c.start = chess::Position::from_fen("r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1");
  SeatedTable t(c);
  t.press(0, 1000, game::kClockButton);       // 1... Ra1# on his board
  t.move(0, 4000, "a8", "a1").advance(5200);  // on the tactile board later
  EXPECT_EQ(t.s().record().result, "0-1");
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 9000), 600000);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 9000), 600000 - 1000);
}

TEST(Sighted, TheBlindPlayersOwnMovesNeedNoPressAndHisPressIsNoMove) {
  SeatedTable t(sighted(chess::Black));
  t.press(0, 500, game::kClockButton);  // White (sighted) moved 1. d4 on his board
  t.move(0, 2000, "d2", "d4").press(0, 2300);
  EXPECT_THAT(t.moves(), ElementsAre("d2d4"));
  t.press(0, 3000, game::kClockButton);  // Black's turn: the sighted player's press is no move
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);
  t.move(0, 4000, "d7", "d5").press(0, 4300);
  EXPECT_THAT(t.moves(), ElementsAre("d2d4", "d7d5"));
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
}

TEST(Sighted, AnOwnMoveBegunBeforeTheSightedMoveIsOnTheBoardIsAnIrregularity) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 3000, game::kClockButton);
  t.up(0, 4000, "d2");  // White's own piece before 1... e5 is on his board
  std::vector<Moment> irregular;
  for (const Moment& o : t.of<Moment>())
    if (o.moment.irregularity == board::Irregularity::OwnMoveEarly) irregular.push_back(o);
  ASSERT_EQ(irregular.size(), 1u);
  EXPECT_EQ(irregular[0].moment.square, chess::D2);
  EXPECT_EQ(t.spoken(0).back(), "Zuerst den Zug des Gegners ausfuehren");
  t.down(0, 4500, "d2");  // put back, then the sighted move and his own
  t.move(0, 5000, "e7", "e5").press(0, 5300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  t.move(0, 6000, "d2", "d4").press(0, 6300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "d2d4"));
}

TEST(Sighted, AnOwnMoveMadeBeforeTheSightedMoveIsOnTheBoardIsStillReadRight) {
  for (const bool press_first : {true, false}) {
    SeatedTable t(sighted());
    t.move(0, 1000, "e2", "e4").press(0, 1300);
    if (press_first) t.press(0, 3000, game::kClockButton);
    // White plays 2. d4 on his board before executing 1... e5 there.
    t.move(0, 4000, "d2", "d4");
    t.move(0, 5000, "e7", "e5");
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5")) << press_first;
    if (!press_first) t.press(0, 5500, game::kClockButton);
    EXPECT_EQ(t.count<Mirrored>(), 1u);
    t.press(0, 6000);
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "d2d4")) << press_first;
    EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);
    EXPECT_EQ(t.of<SwitchClock>().back().ms, 6000);
  }
}

TEST(Sighted, ResumeAfterAPressBeforeTheReproductionComesBackTheSame) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 3000, game::kClockButton);
  t.up(0, 4000, "e7");
  ResumedGame r = resume_from_log(t.log_text());
  EXPECT_EQ(r.session.clock()->remaining_ms(chess::White, 5000),
            t.s().clock()->remaining_ms(chess::White, 5000));
  std::vector<Output> out;
  r.session.on_hole(0, {5000, chess::E5, board::Hole::Down}, out);
  r.session.on_button(0, {5300, Button::Announce}, out);
  ASSERT_EQ(r.session.moves_made(), 2);
  bool confirmed = false;
  for (const Output& o : out) confirmed |= std::holds_alternative<Mirrored>(o);
  EXPECT_TRUE(confirmed);
}

TEST(Sighted, RollbackTakesBackAPressedMove) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.move(0, 2000, "e7", "e5").press(0, 2300).press(0, 3000, game::kClockButton);
  ArbiterCommand c;
  c.kind = ArbiterCommand::Kind::Rollback;
  c.number = 0;
  t.arbiter(4000, c);
  EXPECT_TRUE(t.moves().empty());
  ASSERT_EQ(t.count<Rollback>(), 1u);
  EXPECT_EQ(t.of<Rollback>()[0].fix[0], chess::square_bb(chess::E2) | chess::square_bb(chess::E4) |
                                            chess::square_bb(chess::E7) |
                                            chess::square_bb(chess::E5));
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
}

// ---- Issue 19: the sighted player's move by the Laws (D.2.5, Art. 4.7, 6.2). His move is
// made when the tactile board shows it or at his press, whichever is first; his press only
// runs the clocks, as on an ordinary clock: a press by the player whose clock runs stops it
// and starts the opponent's, any other press changes nothing. The expected clocks below
// are worked out by hand from the presses.

// Every SwitchClock output as "ms colour".
std::vector<std::string> switches(const SeatedTable& t) {
  std::vector<std::string> r;
  for (const SwitchClock& o : t.of<SwitchClock>())
    r.push_back(std::to_string(o.ms) + (o.running == chess::White ? " w" : " b"));
  return r;
}

// No illegal move, no own move begun early, no discrepancy anywhere.
void expect_clean(const SeatedTable& t) {
  for (const Moment& o : t.of<Moment>()) {
    EXPECT_NE(o.moment.kind, board::MomentKind::Illegal) << o.ms;
    EXPECT_NE(o.moment.irregularity, board::Irregularity::OwnMoveEarly) << o.ms;
  }
  EXPECT_EQ(t.count<Discrepancy>(), 0u);
}

// 1. e4 d5 2. exd5 with the blind player's hand going on 100 ms after d5 is put on the
// tactile board: d5 is shown (no longer move could extend it), so his lift of e4 is his own
// move. The sighted player presses before the reproduction, or while the blind player
// already makes his capture.
TEST(SightedIssue19, AQuickCaptureOfThePieceJustPlacedInButtonMode) {
  for (const bool press_first : {true, false}) {
    SeatedTable t(sighted());
    t.move(0, 1000, "e2", "e4").press(0, 1300);
    if (press_first) t.press(0, 3000, game::kClockButton);  // 1... d5 on his board
    t.move(0, 4000, "d7", "d5");                            // on the tactile board: d5 at 4100
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5")) << press_first;
    ASSERT_EQ(t.count<Mirrored>(), 1u) << press_first;
    EXPECT_EQ(t.of<Mirrored>()[0].uci, "d7d5");
    EXPECT_EQ(t.of<Mirrored>()[0].ms, 4100);
    t.up(0, 4200, "e4").up(0, 4350, "d5");
    if (!press_first) t.press(0, 4400, game::kClockButton);  // while the blind player captures
    t.down(0, 4500, "d5").press(0, 4800);
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "e4d5")) << press_first;
    EXPECT_EQ(t.count<Mirrored>(), 1u);
    expect_clean(t);
    // White: 0-1300, then from Black's press to 4800. Black: 1300 to his press.
    const std::int64_t press = press_first ? 3000 : 4400;
    EXPECT_THAT(switches(t), ElementsAre("0 w", "1300 b", std::to_string(press) + " w", "4800 b"));
    EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 6000), 600000 - 1300 - (4800 - press));
    EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 6000),
              600000 - (press - 1300) - (6000 - 4800));
  }
}

// The same in auto mode: the blind player's moves are made by stillness (the settle time
// after his last hole event), the sighted player's when the board shows it.
TEST(SightedIssue19, AQuickCaptureOfThePieceJustPlacedInAutoMode) {
  SessionConfig c = sighted();
  c.recognizer.completion = board::Completion::Auto;
  SeatedTable t(c);
  t.move(0, 1000, "e2", "e4").advance(2100);  // still since 1100: made at 2100
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
  t.press(0, 3000, game::kClockButton);  // 1... d5 on his board
  t.move(0, 4000, "d7", "d5");           // shown at 4100
  t.up(0, 4200, "e4").up(0, 4350, "d5").down(0, 4500, "d5");
  t.advance(5400);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5"));  // still only since 4500
  t.advance(5500);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "e4d5"));
  ASSERT_EQ(t.count<Mirrored>(), 1u);
  EXPECT_EQ(t.of<Mirrored>()[0].uci, "d7d5");
  expect_clean(t);
  EXPECT_THAT(switches(t), ElementsAre("0 w", "2100 b", "3000 w", "5500 b"));
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 5500), 600000 - 2100 - 2500);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5500), 600000 - 900);
}

// The blind player Black: 1. e4 d5 2. exd5 Qxd5, his queen taking the pawn 100 ms after
// the sighted player's capture is on the tactile board.
TEST(SightedIssue19, AQuickRecaptureByTheBlindPlayerAsBlack) {
  SeatedTable t(sighted(chess::Black));
  t.press(0, 500, game::kClockButton);  // 1. e4 on the sighted player's board
  t.move(0, 1500, "e2", "e4");
  t.move(0, 2500, "d7", "d5").press(0, 2900);
  t.press(0, 4000, game::kClockButton);  // 2. exd5 on his board, then on the tactile board:
  t.up(0, 5000, "e4").up(0, 5100, "d5").down(0, 5200, "d5");
  t.up(0, 5300, "d8").up(0, 5450, "d5").down(0, 5600, "d5").press(0, 5900);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "e4d5", "d8d5"));
  ASSERT_EQ(t.count<Mirrored>(), 2u);
  EXPECT_EQ(t.of<Mirrored>()[0].uci, "e2e4");
  EXPECT_EQ(t.of<Mirrored>()[1].uci, "e4d5");
  expect_clean(t);
  EXPECT_THAT(switches(t), ElementsAre("0 w", "500 b", "2900 w", "4000 b", "5900 w"));
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 5900), 600000 - 500 - 1100);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5900), 600000 - 2400 - 1900);
}

// Fool's mate by the sighted player (Black), never pressed: the game ends when the tactile
// board shows 2... Qh4#, with its result, and both clocks stand still from then on.
TEST(SightedIssue19, HisMateEndsTheGameWhenTheBoardShowsItWithNoPress) {
  SeatedTable t(sighted());
  t.move(0, 1000, "f2", "f3").press(0, 1300);
  t.press(0, 2000, game::kClockButton);  // 1... e5
  t.move(0, 3000, "e7", "e5");
  t.move(0, 4500, "g2", "g4").press(0, 4800);
  t.move(0, 6000, "d8", "h4");  // 2... Qh4# on the tactile board at 6100; no press
  EXPECT_THAT(t.moves(), ElementsAre("f2f3", "e7e5", "g2g4", "d8h4"));
  EXPECT_TRUE(t.s().over());
  EXPECT_EQ(t.s().record().result, "0-1");
  ASSERT_EQ(t.count<GameOver>(), 1u);
  EXPECT_EQ(t.of<GameOver>()[0].result, "0-1");
  EXPECT_EQ(t.of<GameOver>()[0].ms, 6100);
  EXPECT_EQ(t.count<Mirrored>(), 2u);
  expect_clean(t);
  t.advance(20000);
  // White: 0-1300, 2000-4800; Black: 1300-2000, 4800-6100.
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 20000), 600000 - 1300 - 2800);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 20000), 600000 - 700 - 1300);
}

// A late press (Art. 6.2.2): 1... e5 shown on the tactile board, no press; the blind
// player makes and announces 2. Nf3 (his clock is not running: his press changes nothing);
// then the sighted player presses. That press is a late-press irregularity, invents no
// move, and runs the clocks as an ordinary clock would; the game goes on.
TEST(SightedIssue19, ALatePressIsAnIrregularityAndNoMove) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.move(0, 2000, "e7", "e5");  // shown at 2100: 1... e5 is made
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  t.move(0, 3500, "g1", "f3").press(0, 3800);  // made and announced
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  bool announced = false;
  for (const Moment& o : t.of<Moment>())
    announced |= o.moment.kind == board::MomentKind::Made && o.uci == "g1f3" && o.ms == 3800;
  EXPECT_TRUE(announced);
  t.press(0, 4500, game::kClockButton);  // late
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  std::vector<Moment> late;
  for (const Moment& o : t.of<Moment>())
    if (o.moment.kind == board::MomentKind::Irregularity &&
        o.moment.irregularity == board::Irregularity::LatePress)
      late.push_back(o);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].ms, 4500);
  EXPECT_EQ(board::irregularity_name(board::Irregularity::LatePress), "late-press");
  // The game goes on: 2... Nc6 shown, 3. Bb5 announced.
  t.move(0, 6000, "b8", "c6");
  t.move(0, 7500, "f1", "b5").press(0, 7800);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"));
  EXPECT_EQ(t.count<Mirrored>(), 2u);
  expect_clean(t);
  EXPECT_THAT(switches(t), ElementsAre("0 w", "1300 b", "4500 w", "7800 b"));
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 7800), 600000 - 1300 - 3300);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 7800), 600000 - 3200);
}

// 1. e4 d5 2. Nc3, the sighted player has pressed for his second move, not yet on the
// tactile board: the blind player lifts his e4 pawn (which d5 could take) and puts it
// back. Nothing jams: the sighted move (2... Nf6, or 2... dxe4 taking that very pawn) is
// read when shown and the blind player's next move after it.
TEST(SightedIssue19, AnOwnCapturablePieceLiftedAndPutBackJamsNothing) {
  for (const bool capture : {false, true}) {
    SeatedTable t(sighted());
    t.move(0, 1000, "e2", "e4").press(0, 1300);
    t.press(0, 2000, game::kClockButton);  // 1... d5
    t.move(0, 2500, "d7", "d5");
    t.move(0, 4000, "b1", "c3").press(0, 4300);
    t.press(0, 5000, game::kClockButton);     // 2... on his board
    t.up(0, 5500, "e4").down(0, 5700, "e4");  // the blind player's pawn, put back
    if (capture) {
      t.up(0, 7000, "d5").up(0, 7100, "e4").down(0, 7200, "e4");                 // 2... dxe4
      t.up(0, 8500, "c3").up(0, 8600, "e4").down(0, 8700, "e4").press(0, 9000);  // 3. Nxe4
      EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "b1c3", "d5e4", "c3e4"));
    } else {
      t.move(0, 7000, "g8", "f6");                 // 2... Nf6
      t.move(0, 8500, "f1", "b5").press(0, 9000);  // 3. Bb5+
      EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "b1c3", "g8f6", "f1b5"));
    }
    EXPECT_EQ(t.count<Mirrored>(), 2u) << capture;
    for (const Moment& o : t.of<Moment>())
      EXPECT_NE(o.moment.kind, board::MomentKind::Illegal) << o.ms;
    EXPECT_EQ(t.count<Discrepancy>(), 0u);
    EXPECT_THAT(switches(t), ElementsAre("0 w", "1300 b", "2000 w", "4300 b", "5000 w", "9000 b"));
    EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 9000), 600000 - 1300 - 2300 - 4000);
    EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 9000), 600000 - 700 - 700);
  }
}

// The sighted player's own board read as board B (board-b = dgt, issue 36): his move is
// made when read there (Art. 4.7), announced to the blind player and reproduced on the
// tactile board; the blind player's move is reproduced on board B. His press still runs
// the clocks: the move read before it carries his time at the press.
constexpr int kA = 0, kB = 1;

SessionConfig sighted_with_board_b() {
  SessionConfig c = SeatedTable::config("sighted", "600+0", board::Completion::Auto);
  testing::set_option(c, "board-b", "dgt");
  c.seating = &c.seating->seated(c.seating_options);  // as the config and resume take it
  c.language = record::Language::English;
  return c;
}

// "[%clk h:mm:ss]" of `ms` left (whole seconds, as the record writes them).
std::string clk(std::int64_t ms) {
  const std::int64_t s = ms / 1000;
  char text[32];
  std::snprintf(text, sizeof text, "[%%clk %lld:%02lld:%02lld]", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  return text;
}

TEST(SightedBoardB, HisMoveIsReadOnBoardBAndReproducedOnTheTactileBoard) {
  SeatedTable t(sighted_with_board_b());
  ASSERT_EQ(t.s().config().seating->boards(), 2);
  t.move(kA, 1000, "e2", "e4").advance(3000);  // the blind player's own move, by stillness
  ASSERT_THAT(t.moves(), ElementsAre("e2e4"));
  EXPECT_EQ(t.s().to_reproduce(kB), t.s().record().moves[0].move);  // to reproduce on B
  t.move(kB, 3500, "e2", "e4");
  ASSERT_EQ(t.count<Mirrored>(kB), 1u);
  EXPECT_TRUE(t.s().to_reproduce(kB).is_none());
  // His move on his board, read there before his press: made on B, his clock runs on.
  t.move(kB, 4000, "e7", "e5").advance(6000);
  ASSERT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  ASSERT_FALSE(t.of<Moment>(kB).empty());
  EXPECT_EQ(t.of<Moment>(kB).back().moment.kind, board::MomentKind::Made);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::Black);
  EXPECT_EQ(t.s().to_reproduce(kA), t.s().record().moves[1].move);  // lit on the tactile board
  EXPECT_EQ(t.of<LightSquares>(kA).back().squares, chess::square_bb(chess::parse_square("e7")) |
                                                       chess::square_bb(chess::parse_square("e5")));
  EXPECT_EQ(t.count<Mirrored>(kA), 0u);
  t.press(kA, 7000, game::kClockButton);  // his press on board A's clock button
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
  EXPECT_EQ(t.s().record().moves[1].comment, clk(t.s().clock()->remaining_ms(chess::Black, 7000)));
  // Reproduced on the tactile board: mirrored, nothing made again.
  t.move(kA, 8000, "e7", "e5");
  ASSERT_EQ(t.count<Mirrored>(kA), 1u);
  EXPECT_EQ(t.of<Mirrored>(kA)[0].uci, "e7e5");
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(t.count<Discrepancy>(), 0u);

  // His press first (his move made on his board, not read yet): the move read after it
  // carries his time at the press; a reproduction on the tactile board begun before the
  // move is read is kept and mirrored when it is.
  t.move(kA, 9000, "g1", "f3").advance(11000);
  t.move(kB, 11500, "g1", "f3");
  t.press(kA, 13000, game::kClockButton);
  const std::int64_t at_press = t.s().clock()->remaining_ms(chess::Black, 13000);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);
  t.move(kA, 13500, "b8", "c6");  // the assistant, quicker than the board's stillness
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  t.move(kB, 14000, "b8", "c6").advance(16000);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3", "b8c6"));
  EXPECT_EQ(t.s().record().moves[3].comment, clk(at_press));
  ASSERT_EQ(t.count<Mirrored>(kA), 2u);
  EXPECT_EQ(t.of<Mirrored>(kA)[1].uci, "b8c6");
  EXPECT_EQ(t.count<Discrepancy>(), 0u);
  EXPECT_EQ(t.of<SwitchClock>().back().running, chess::White);  // no switch at the reading
}

// A wrong reproduction of his move on the tactile board is a discrepancy there, as on two
// boards (nobody's illegal move: his move is on his own board).
TEST(SightedBoardB, AWrongReproductionOnTheTactileBoardIsADiscrepancy) {
  SeatedTable t(sighted_with_board_b());
  t.move(kA, 1000, "e2", "e4").advance(3000);
  t.move(kB, 3500, "e2", "e4");
  t.move(kB, 4000, "e7", "e5").advance(6000);
  ASSERT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  t.move(kA, 7000, "e7", "e6").advance(9000);  // settled wrong
  ASSERT_EQ(t.count<Discrepancy>(kA), 1u);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  t.move(kA, 9500, "e6", "e5");  // put right: resolved and mirrored
  EXPECT_EQ(t.count<Resolved>(kA), 1u);
  EXPECT_EQ(t.count<Mirrored>(kA), 1u);
}

}  // namespace
}  // namespace tactile::game
