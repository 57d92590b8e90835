// A sighted opponent (D.2.5): the tactile board is the blind player's; the sighted
// player's move is made by his clock press, then executed on the tactile board (before
// or after the press), recognised there and confirmed ("Gegner: ...").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/game/resume.h"
#include "tests/game/seated_table.h"

namespace tactile::game {
namespace {
using ::testing::ElementsAre;
using testing::SeatedTable;
using Kind = Output::Kind;
using board::Button;

SessionConfig sighted(chess::Color player = chess::White) {
  SessionConfig c = SeatedTable::config(Seating::Sighted);
  c.player = player;
  return c;
}

TEST(Sighted, APressBeforeTheReproductionStartsTheBlindPlayersClock) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);  // the blind player's own move, as today
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::Black);
  t.press(0, 5000, Button::Clock);  // the sighted player has played 1... e5 on his board
  ASSERT_EQ(t.count(Kind::SwitchClock), 3u);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::White);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().ms, 5000);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));  // his move is not on the board yet
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 5000), 600000 - 3700);
  // It is executed on the tactile board and recognised there: a confirmation.
  t.move(0, 9000, "e7", "e5").press(0, 9300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_EQ(t.count(Kind::SwitchClock), 3u);  // the press switched it already
  ASSERT_EQ(t.count(Kind::Mirrored), 1u);
  EXPECT_EQ(t.of(Kind::Mirrored)[0].uci, "e7e5");
  EXPECT_EQ(t.spoken(0).back(), "Gegner: Bauer Eva fuenf");
  EXPECT_EQ(t.s().record().moves[1].comment, "[%clk 0:09:56]");  // Black's time at the press
  // White's clock has run since the press.
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 9300), 600000 - 1300 - 4300);
  t.move(0, 10000, "g1", "f3").press(0, 10300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::Black);
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
  EXPECT_EQ(t.count(Kind::Mirrored), 1u);
  EXPECT_EQ(t.of(Kind::Mirrored)[0].ms, 3100);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::Black);  // his clock runs on
  t.press(0, 6000, Button::Clock);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "g8f6"));
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::White);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().ms, 6000);
  EXPECT_EQ(t.count(Kind::Mirrored), 1u);
  EXPECT_EQ(t.spoken(0).back(), "Opponent: Knight f-six");
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 6000), 600000 - 4700);
}

// In button mode nobody presses announce for the sighted player's move: it is read from
// the tactile board as soon as it shows a legal move that no longer move could extend,
// with no irregularity when the blind player then begins his own move.
TEST(Sighted, TheSightedMoveNeedsNoAnnouncePressInButtonMode) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 4000, Button::Clock);  // pressed first
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
  t.press(0, 12500, Button::Clock);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().ms, 12500);
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::White);
  // The blind player's own moves still wait for his announce press.
  t.move(0, 13000, "f1", "b5").advance(20000);
  EXPECT_EQ(t.moves().size(), 4u);
  t.press(0, 20300);
  EXPECT_EQ(t.moves().size(), 5u);
  for (const Output& o : t.of(Kind::Moment))
    EXPECT_NE(o.moment.irregularity, board::Irregularity::OwnMoveEarly) << o.ms;
}

// The sighted player's capture, reproduced after his press: the blind player's piece lifted
// out of its hole is the captured one, not his own move begun early.
TEST(Sighted, TheCapturedPieceLiftedOutIsNoOwnMoveBegunEarly) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 2000, Button::Clock);
  t.move(0, 3000, "d7", "d5").advance(5000);
  t.move(0, 6000, "b1", "c3").press(0, 6300);
  t.press(0, 7000, Button::Clock);  // 2... dxe4 on his board
  t.up(0, 8000, "e4").up(0, 8200, "d5").down(0, 8400, "e4").advance(10000);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "d7d5", "b1c3", "d5e4"));
  for (const Output& o : t.of(Kind::Moment))
    EXPECT_NE(o.moment.irregularity, board::Irregularity::OwnMoveEarly) << o.ms;
}

// The sighted player's move put into a wrong hole on the tactile board: nobody made an
// illegal move (his move is on his own board); the hole no move of his explains is a
// discrepancy until put right, then his move is read.
TEST(Sighted, HisMovePutIntoAWrongHoleIsADiscrepancyNotAnIllegalMove) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 2000, Button::Clock);  // 1... e5 on his board
  t.move(0, 3000, "e7", "a6");      // on the tactile board: the pawn into a6
  t.advance(4200);
  ASSERT_EQ(t.count(Kind::Discrepancy), 1u);
  const Output d = t.of(Kind::Discrepancy)[0];
  EXPECT_EQ(d.ms, 4100);
  EXPECT_EQ(d.empty, 0u);
  EXPECT_EQ(d.occupied, chess::square_bb(chess::A6));
  EXPECT_EQ(t.s().discrepancy(0), chess::square_bb(chess::A6));
  EXPECT_THAT(t.spoken(0).back(), ::testing::StartsWith("Brett falsch"));
  for (const Output& o : t.of(Kind::Moment))
    EXPECT_NE(o.moment.kind, board::MomentKind::Illegal) << o.ms;
  t.move(0, 6000, "a6", "e5").advance(7200);
  EXPECT_EQ(t.count(Kind::Resolved), 1u);
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
    t.press(0, 1000, Button::Clock);
    t.up(0, 2000, "a2");
    if (knight) t.press(0, 2050, Button::PromoteKnight);
    t.down(0, 2100, "a1").advance(3200);
    EXPECT_THAT(t.moves(), ElementsAre(knight ? "a2a1n" : "a2a1q"));
    for (const Output& o : t.of(Kind::Moment))
      EXPECT_NE(o.moment.kind, board::MomentKind::Pending) << o.ms;
  }
}

// His mating move is made by his press: the game ended then, and the blind player's clock,
// running since the press, stands as it was at that moment.
TEST(Sighted, HisMateEndsTheGameAtHisPress) {
  SessionConfig c = sighted();
  c.start = chess::Position::from_fen("r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1");
  SeatedTable t(c);
  t.press(0, 1000, Button::Clock);            // 1... Ra1# on his board
  t.move(0, 4000, "a8", "a1").advance(5200);  // on the tactile board later
  EXPECT_EQ(t.s().record().result, "0-1");
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::White, 9000), 600000);
  EXPECT_EQ(t.s().clock()->remaining_ms(chess::Black, 9000), 600000 - 1000);
}

TEST(Sighted, TheBlindPlayersOwnMovesNeedNoPressAndHisPressIsNoMove) {
  SeatedTable t(sighted(chess::Black));
  t.press(0, 500, Button::Clock);  // White (sighted) moved 1. d4 on his board
  t.move(0, 2000, "d2", "d4").press(0, 2300);
  EXPECT_THAT(t.moves(), ElementsAre("d2d4"));
  t.press(0, 3000, Button::Clock);  // Black's turn: the sighted player's press is no move
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::Black);
  t.move(0, 4000, "d7", "d5").press(0, 4300);
  EXPECT_THAT(t.moves(), ElementsAre("d2d4", "d7d5"));
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::White);
}

TEST(Sighted, AnOwnMoveBegunBeforeTheSightedMoveIsOnTheBoardIsAnIrregularity) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 3000, Button::Clock);
  t.up(0, 4000, "d2");  // White's own piece before 1... e5 is on his board
  std::vector<Output> irregular;
  for (const Output& o : t.of(Kind::Moment))
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
    if (press_first) t.press(0, 3000, Button::Clock);
    // White plays 2. d4 on his board before executing 1... e5 there.
    t.move(0, 4000, "d2", "d4");
    t.move(0, 5000, "e7", "e5");
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5")) << press_first;
    if (!press_first) t.press(0, 5500, Button::Clock);
    EXPECT_EQ(t.count(Kind::Mirrored), 1u);
    t.press(0, 6000);
    EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "d2d4")) << press_first;
    EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::Black);
    EXPECT_EQ(t.of(Kind::SwitchClock).back().ms, 6000);
  }
}

TEST(Sighted, ResumeAfterAPressBeforeTheReproductionComesBackTheSame) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.press(0, 3000, Button::Clock);
  t.up(0, 4000, "e7");
  ResumedGame r = resume_from_log(t.log_text());
  EXPECT_EQ(r.session.clock()->remaining_ms(chess::White, 5000),
            t.s().clock()->remaining_ms(chess::White, 5000));
  std::vector<Output> out;
  r.session.on_hole(0, {5000, chess::E5, board::Hole::Down}, out);
  r.session.on_button(0, {5300, Button::Announce}, out);
  ASSERT_EQ(r.session.moves_made(), 2);
  bool confirmed = false;
  for (const Output& o : out) confirmed |= o.kind == Kind::Mirrored;
  EXPECT_TRUE(confirmed);
}

TEST(Sighted, RollbackTakesBackAPressedMove) {
  SeatedTable t(sighted());
  t.move(0, 1000, "e2", "e4").press(0, 1300);
  t.move(0, 2000, "e7", "e5").press(0, 2300).press(0, 3000, Button::Clock);
  ArbiterCommand c;
  c.kind = ArbiterCommand::Kind::Rollback;
  c.number = 0;
  t.arbiter(4000, c);
  EXPECT_TRUE(t.moves().empty());
  ASSERT_EQ(t.count(Kind::Rollback), 1u);
  EXPECT_EQ(t.of(Kind::Rollback)[0].fix[0],
            chess::square_bb(chess::E2) | chess::square_bb(chess::E4) |
                chess::square_bb(chess::E7) | chess::square_bb(chess::E5));
  EXPECT_EQ(t.of(Kind::SwitchClock).back().color, chess::White);
}

}  // namespace
}  // namespace tactile::game
