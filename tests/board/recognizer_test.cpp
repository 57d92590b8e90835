// SPDX-License-Identifier: GPL-3.0-or-later
// Recognizer: every move kind in every physical order, both colours; ranking, ambiguity,
// illegal attempts, touch-move and adjusting.
#include "core/board/recognizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/position.h"
#include "tests/board/board_hand.h"

namespace tactile::board {
namespace {
using chess::Position;
using ::testing::ElementsAre;
using testing::Hand;
using ::testing::IsEmpty;

Position fen(const char* text, bool chess960 = false) {
  Position p = Position::from_fen(text);
  if (chess960) p.set_chess960(true);
  return p;
}

std::vector<Irregularity> irregularities(const Hand& h) {
  std::vector<Irregularity> r;
  for (const Moment& m : h.of(MomentKind::Irregularity)) r.push_back(m.irregularity);
  return r;
}

TEST(Recognizer, PlainMoveBothColoursNeedsTheAnnouncement) {
  Hand h(Position{});
  h.move("e2", "e4");
  EXPECT_THAT(h.made(), IsEmpty());  // D.2.3 (3): not made before it is announced
  ASSERT_EQ(h.of(MomentKind::Touched).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Touched)[0].square, chess::E2);
  EXPECT_EQ(h.of(MomentKind::Touched)[0].piece, chess::WPawn);
  h.announce();
  h.move("g8", "f6").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4", "g8f6"));
  EXPECT_EQ(h.of(MomentKind::Touched).size(), 2u);
  EXPECT_EQ(h.of(MomentKind::Touched)[1].piece, chess::BKnight);
  EXPECT_EQ(h.rec().position().side_to_move(), chess::White);
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, CaptureCapturedPieceRemovedFirst) {
  Hand h(fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"));
  h.up("d5").up("e4").down("d5").announce();
  EXPECT_THAT(h.made(), ElementsAre("e4d5"));
  ASSERT_EQ(h.of(MomentKind::Removed).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Removed)[0].piece, chess::BPawn);
}

TEST(Recognizer, CaptureOwnPieceLiftedFirst) {
  Hand h(fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"));
  h.up("e4").up("d5").down("d5").announce();
  EXPECT_THAT(h.made(), ElementsAre("e4d5"));
}

TEST(Recognizer, BlackCapturesBothOrders) {
  const char* f = "rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2";
  Hand first(fen(f));
  first.up("e4").up("d5").down("e4").announce();
  Hand after(fen(f));
  after.up("d5").up("e4").down("e4").announce();
  EXPECT_THAT(first.made(), ElementsAre("d5e4"));
  EXPECT_THAT(after.made(), ElementsAre("d5e4"));
}

TEST(Recognizer, CaptureWithoutRemovingIsNoMove) {
  // The pawn never left e4 empty... a capture needs the captured piece removed (D.2.3 (1)).
  Hand h(fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"));
  h.up("e4").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::Illegal).size(), 1u);
}

TEST(Recognizer, SameOccupancyCapturesDifferByTheEmptiedHole) {
  // Rook d4 can take d7 or g4: both leave d4 empty and everything else full.
  const char* f = "4k3/3p4/8/8/3R2p1/8/8/4K3 w - - 0 1";
  Hand g4(fen(f));
  g4.up("g4").up("d4").down("g4").announce();
  EXPECT_THAT(g4.made(), ElementsAre("d4g4"));
  Hand d7(fen(f));
  d7.up("d4").up("d7").down("d7").announce();
  EXPECT_THAT(d7.made(), ElementsAre("d4d7"));
  // d7 adjusted before the rook left d4: the rook cannot have landed on d7.
  Hand adjusted(fen(f));
  adjusted.up("d7").down("d7").up("g4").up("d4").down("g4").announce();
  EXPECT_THAT(adjusted.made(), ElementsAre("d4g4"));
  EXPECT_THAT(adjusted.of(MomentKind::Pending), IsEmpty());
}

TEST(Recognizer, TwoReadingsLeftAreAnnouncedAndCanBeCorrected) {
  // Both black pawns lifted, the rook lifted, then both holes refilled: Rxd7 and Rxg4
  // explain the events equally (D.2.8).
  const char* f = "4k3/3p4/8/8/3R2p1/8/8/4K3 w - - 0 1";
  Hand h(fen(f));
  h.up("d7").up("g4").up("d4").down("d7").down("g4").announce();
  ASSERT_EQ(h.of(MomentKind::Pending).size(), 1u);
  const Moment first = h.of(MomentKind::Pending)[0];
  EXPECT_EQ(first.reason, PendingReason::Ambiguous);
  EXPECT_EQ(first.readings, 2);
  EXPECT_THAT(h.made(), IsEmpty());  // nothing guessed silently
  h.press(Button::Correct);
  ASSERT_EQ(h.of(MomentKind::Pending).size(), 2u);
  const Moment second = h.of(MomentKind::Pending)[1];
  EXPECT_NE(second.move, first.move);
  EXPECT_EQ(second.reading, 1);
  h.announce();
  ASSERT_EQ(h.made().size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Made)[0].move, second.move);
  EXPECT_TRUE(h.of(MomentKind::Made)[0].corrected);
  // After the move is made, correcting is too late.
  h.press(Button::Correct);
  EXPECT_EQ(h.of(MomentKind::TooLate).size(), 1u);
}

TEST(Recognizer, CorrectCyclesBackToTheFirstReading) {
  Hand h(fen("4k3/3p4/8/8/3R2p1/8/8/4K3 w - - 0 1"));
  h.up("d7").up("g4").up("d4").down("d7").down("g4").announce();
  h.press(Button::Correct).press(Button::Correct).announce();
  EXPECT_EQ(h.of(MomentKind::Made)[0].move, h.of(MomentKind::Pending)[0].move);
  // Back at the reading first announced: nothing was corrected ("Corrected" is not said).
  EXPECT_FALSE(h.of(MomentKind::Made)[0].corrected);
}

TEST(Recognizer, EnPassantPawnRemovedBeforeLanding) {
  Hand h(fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"));
  h.up("e5").up("f5").down("f6").announce();
  EXPECT_THAT(h.made(), ElementsAre("e5f6"));
  EXPECT_EQ(h.of(MomentKind::Made)[0].move.kind(), chess::Move::EnPassant);
}

TEST(Recognizer, EnPassantPawnRemovedAfterLanding) {
  Hand h(fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"));
  h.up("e5").down("f6");
  h.announce();  // the captured pawn is still there: not a legal move yet
  EXPECT_THAT(h.made(), IsEmpty());
  h.up("f5").announce();
  EXPECT_THAT(h.made(), ElementsAre("e5f6"));
}

TEST(Recognizer, EnPassantBlackPawnRemovedFirst) {
  Hand h(fen("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2"));
  h.up("d4").up("e4").down("d3").announce();
  EXPECT_THAT(h.made(), ElementsAre("e4d3"));
}

TEST(Recognizer, EnPassantBlackPawnRemovedAfterLanding) {
  Hand h(fen("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2"));
  h.up("e4").down("d3").up("d4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e4d3"));
}

constexpr const char* kCastle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
constexpr const char* kCastleBlack = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";

TEST(Recognizer, CastlingKingFirst) {
  Hand h(fen(kCastle));
  h.move("e1", "g1").move("h1", "f1").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1h1"));  // king takes own rook internally
  EXPECT_EQ(h.of(MomentKind::Made)[0].move.kind(), chess::Move::Castling);
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, CastlingRookFirstIsRecordedNotRefused) {
  Hand h(fen(kCastle));
  h.move("h1", "f1").move("e1", "g1").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1h1"));
  EXPECT_THAT(irregularities(h), ElementsAre(Irregularity::CastlingRookFirst));
}

TEST(Recognizer, CastlingBothLiftedKingPlacedFirst) {
  Hand h(fen(kCastle));
  h.up("e1").up("h1").down("g1").down("f1").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1h1"));
}

TEST(Recognizer, CastlingKingOffTheBoardFirst) {
  Hand h(fen(kCastle));
  h.up("e1").move("h1", "f1").down("g1").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1h1"));
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, QueensideCastlingBothColours) {
  Hand h(fen(kCastle));
  h.move("e1", "c1").move("a1", "d1").announce();
  h.up("e8").move("a8", "d8").down("c8").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1a1", "e8a8"));
}

TEST(Recognizer, BlackKingsideCastlingEveryOrder) {
  for (int order = 0; order < 4; ++order) {
    Hand h(fen(kCastleBlack));
    if (order == 0) h.move("e8", "g8").move("h8", "f8");
    if (order == 1) h.move("h8", "f8").move("e8", "g8");
    if (order == 2) h.up("e8").up("h8").down("g8").down("f8");
    if (order == 3) h.up("e8").move("h8", "f8").down("g8");
    h.announce();
    EXPECT_THAT(h.made(), ElementsAre("e8h8")) << "order " << order;
  }
}

TEST(Recognizer, KingOnlyHalfWayIsNotAMove) {
  // King on g1, rook still on h1: no legal move shows this; the clock must not switch.
  Hand h(fen(kCastle));
  h.move("e1", "g1").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::Illegal).size(), 1u);
  h.move("h1", "f1").announce();  // finishing the castling completes it
  EXPECT_THAT(h.made(), ElementsAre("e1h1"));
}

// Chess960: the four physical forms.
TEST(Recognizer, Chess960SwapBothOrders) {
  // King f1, rook g1: O-O swaps them; the occupancy does not change at all.
  const char* f = "1k6/8/8/8/8/8/8/5KR1 w G - 0 1";
  Hand king_first(fen(f, true));
  king_first.up("f1").up("g1").down("f1").down("g1").announce();
  EXPECT_THAT(king_first.made(), ElementsAre("f1g1"));
  EXPECT_EQ(king_first.of(MomentKind::Made)[0].move.kind(), chess::Move::Castling);
  Hand rook_first(fen(f, true));
  rook_first.up("g1").up("f1").down("g1").down("f1").announce();
  EXPECT_THAT(rook_first.made(), ElementsAre("f1g1"));
  EXPECT_THAT(irregularities(rook_first), ElementsAre(Irregularity::CastlingRookFirst));
}

TEST(Recognizer, Chess960SwapNeedsBothPiecesOffTheirHoles) {
  // Lifting and reinserting king and then rook one by one is only adjusting.
  Hand h(fen("1k6/8/8/8/8/8/8/5KR1 w G - 0 1", true));
  h.up("f1").down("f1").up("g1").down("g1").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::NoMove).size(), 1u);
}

TEST(Recognizer, Chess960KingOnlyMoves) {
  // King e1, rook d1: O-O-O puts the king on c1 and leaves the rook where it is.
  Hand h(fen("1k6/8/8/8/8/8/8/3RK3 w D - 0 1", true));
  h.move("e1", "c1").announce();
  EXPECT_THAT(h.made(), ElementsAre("e1d1"));
  EXPECT_EQ(h.of(MomentKind::Made)[0].move.kind(), chess::Move::Castling);
}

TEST(Recognizer, Chess960RookOnlyMovesKingLiftedFirst) {
  // King g1, rook h1: O-O moves only the rook to f1; the king is lifted first as
  // recommended, then put back.
  Hand h(fen("1k6/8/8/8/8/8/8/6KR w H - 0 1", true));
  h.up("g1").move("h1", "f1").down("g1").announce();
  EXPECT_THAT(h.made(), ElementsAre("g1h1"));
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, Chess960RookOnlyWithoutTouchingTheKing) {
  // The king already stands on its castling square: moving the rook alone is the whole
  // castling, nothing was begun with the rook before the king.
  Hand h(fen("1k6/8/8/8/8/8/8/6KR w H - 0 1", true));
  h.move("h1", "f1").announce();
  EXPECT_THAT(h.made(), ElementsAre("g1h1"));
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, Chess960RookTouchedBeforeTheStayingKing) {
  // Rook lifted first, then the king lifted and put back (Art. 4.4.2: rook, then king).
  Hand h(fen("1k6/8/8/8/8/8/8/6KR w H - 0 1", true));
  h.up("h1").up("g1").down("g1").down("f1").announce();
  EXPECT_THAT(h.made(), ElementsAre("g1h1"));
  EXPECT_THAT(irregularities(h), ElementsAre(Irregularity::CastlingRookFirst));
}

TEST(Recognizer, Chess960QueensideBothMoveEveryOrder) {
  // King b1, rook a1: O-O-O puts the king on c1 and the rook on d1.
  const char* f = "1k6/8/8/8/8/8/8/RK6 w A - 0 1";
  for (int order = 0; order < 3; ++order) {
    Hand h(fen(f, true));
    if (order == 0) h.up("b1").move("a1", "d1").down("c1");  // king off the board first
    if (order == 1) h.move("a1", "d1").move("b1", "c1");     // rook first
    if (order == 2) h.move("b1", "c1").move("a1", "d1");     // king placed, then rook
    h.announce();
    EXPECT_THAT(h.made(), ElementsAre("b1a1")) << "order " << order;
  }
}

TEST(Recognizer, Chess960BlackCastling) {
  Hand h(fen("5k1r/8/8/8/8/8/8/4K3 b h - 0 1", true));
  h.up("f8").move("h8", "f8").down("g8").announce();
  EXPECT_THAT(h.made(), ElementsAre("f8h8"));
}

TEST(Recognizer, LawfulReadingFirstDesignExample) {
  // docs/recognition.md (castling forms): king f1, rook h1. "King off, rook h1 to f1, king to
  // g1" is castling, not "king lifted and put back, rook h1 to g1".
  const char* f = "1k6/8/8/8/8/8/8/5K1R w H - 0 1";
  Hand h(fen(f, true));
  h.up("f1").move("h1", "f1").down("g1").announce();
  EXPECT_THAT(h.made(), ElementsAre("f1h1"));
  EXPECT_THAT(h.of(MomentKind::Pending), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::Made)[0].readings, 2);  // the rook move was a reading too
  // King lifted and put back first, then the rook to g1: the king cannot have reached
  // g1 (its hole was refilled before), so only the rook move remains, with touch-move.
  Hand rook(fen(f, true));
  rook.up("f1").down("f1").move("h1", "g1").announce();
  EXPECT_THAT(rook.made(), ElementsAre("h1g1"));
  EXPECT_THAT(irregularities(rook), ElementsAre(Irregularity::TouchMove));
}

TEST(Recognizer, PromotionPieceFromTheButtonAtAnyTime) {
  const char* f = "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1";
  Hand before(fen(f));
  before.press(Button::PromoteKnight).move("e7", "e8").announce();
  Hand during(fen(f));
  during.up("e7").press(Button::PromoteRook).down("e8").announce();
  Hand after(fen(f));
  after.move("e7", "e8").press(Button::PromoteBishop).announce();
  EXPECT_THAT(before.made(), ElementsAre("e7e8n"));
  EXPECT_THAT(during.made(), ElementsAre("e7e8r"));
  EXPECT_THAT(after.made(), ElementsAre("e7e8b"));
  EXPECT_THAT(before.of(MomentKind::Pending), IsEmpty());
}

TEST(Recognizer, PromotionDefaultsToQueenSaidAloud) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  h.move("e7", "e8").announce();
  ASSERT_EQ(h.of(MomentKind::Pending).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Pending)[0].reason, PendingReason::DefaultPromotion);
  EXPECT_EQ(h.of(MomentKind::Pending)[0].move.promotion(), chess::Queen);
  EXPECT_THAT(h.made(), IsEmpty());
  h.announce();
  EXPECT_THAT(h.made(), ElementsAre("e7e8q"));
}

TEST(Recognizer, PromotionCorrectedBeforeTheClockStarts) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  h.move("e7", "e8").announce().press(Button::Correct);
  ASSERT_EQ(h.of(MomentKind::Pending).size(), 2u);
  EXPECT_EQ(h.of(MomentKind::Pending)[1].move.promotion(), chess::Rook);
  // The knight named answers the question: made at once, not asked again (issue 29).
  h.press(Button::PromoteKnight);
  EXPECT_EQ(h.of(MomentKind::Pending).size(), 2u);
  EXPECT_THAT(h.made(), ElementsAre("e7e8n"));
  EXPECT_TRUE(h.of(MomentKind::Made)[0].corrected);
}

TEST(Recognizer, BlackPromotionWithCapture) {
  Hand h(fen("4k3/8/8/8/8/8/3p4/1KR5 b - - 0 1"));
  h.up("c1").up("d2").down("c1").press(Button::PromoteKnight).announce();
  EXPECT_THAT(h.made(), ElementsAre("d2c1n"));
}

TEST(Recognizer, IllegalAttemptThenRestoreAndRetry) {
  Hand h(Position{});
  h.move("e2", "e5").announce();
  ASSERT_EQ(h.of(MomentKind::Illegal).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Illegal)[0].squares,
            chess::square_bb(chess::E2) | chess::square_bb(chess::E5));
  EXPECT_THAT(h.made(), IsEmpty());
  h.move("e5", "e2");  // restored
  h.move("e2", "e4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, IllegalAttemptCorrectedDirectly) {
  Hand h(Position{});
  h.move("e2", "e5").announce().move("e5", "e4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
}

TEST(Recognizer, IllegalMoveIntoCheckIsRefused) {
  // The d-pawn is pinned (king e1, bishop a5): moving it is no legal move.
  Hand h(fen("4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1"));
  h.move("d2", "d3").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::Illegal).size(), 1u);
}

TEST(Recognizer, TouchMoveIsRecordedNotEnforced) {
  Hand h(Position{});
  h.up("g1").down("g1").move("e2", "e4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
  ASSERT_EQ(h.of(MomentKind::Touched).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Touched)[0].square, chess::G1);
  ASSERT_EQ(h.of(MomentKind::Irregularity).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::Irregularity)[0].irregularity, Irregularity::TouchMove);
  EXPECT_EQ(h.of(MomentKind::Irregularity)[0].square, chess::G1);
}

TEST(Recognizer, OtherTouchedPiecesAreRecordedToo) {
  Hand h(Position{});
  h.up("e2").down("e2").up("d2").down("d2").move("g1", "f3").announce();
  EXPECT_THAT(h.made(), ElementsAre("g1f3"));
  EXPECT_THAT(irregularities(h),
              ElementsAre(Irregularity::TouchMove, Irregularity::TouchedNotMoved));
}

TEST(Recognizer, AdjustingPiecesDoesNotBreakRecognition) {
  Hand h(Position{});
  // Own piece adjusted before moving it, an opponent's piece adjusted, the moved piece
  // lifted again and reinserted on its new square.
  h.up("e2").down("e2").up("d7").down("d7").move("e2", "e4").up("e4").down("e4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
  EXPECT_THAT(irregularities(h), IsEmpty());
}

TEST(Recognizer, AnnounceWithNothingMovedIsNoMove) {
  Hand h(Position{});
  h.announce();
  EXPECT_EQ(h.of(MomentKind::NoMove).size(), 1u);
  EXPECT_THAT(h.made(), IsEmpty());
}

TEST(Recognizer, ImpossibleHoleEventIsReported) {
  Hand h(Position{});
  h.down("e2");  // e2 already holds a peg
  ASSERT_EQ(h.of(MomentKind::BoardDiffers).size(), 1u);
  EXPECT_EQ(h.of(MomentKind::BoardDiffers)[0].square, chess::E2);
  h.move("e2", "e4").announce();
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
}

TEST(Recognizer, HoleEventWithdrawsAPendingReading) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  h.move("e7", "e8").announce();
  EXPECT_TRUE(h.rec().pending());
  h.up("e8");
  EXPECT_FALSE(h.rec().pending());
  h.down("e8").press(Button::PromoteQueen).announce();
  EXPECT_THAT(h.made(), ElementsAre("e7e8q"));
}

TEST(Recognizer, WithdrawnPromotionAsksAgainWithTheCorrectedPiece) {
  // Queen announced, corrected to rook, then the pawn lifted again: the announcement is
  // withdrawn. Completing again must ask again (the rook, as corrected) and the move,
  // once confirmed, is marked corrected.
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  h.move("e7", "e8").announce().press(Button::Correct);
  h.up("e8").down("e8").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  ASSERT_EQ(h.of(MomentKind::Pending).size(), 3u);
  EXPECT_EQ(h.of(MomentKind::Pending)[2].move.promotion(), chess::Rook);
  EXPECT_EQ(h.of(MomentKind::Pending)[2].reason, PendingReason::DefaultPromotion);
  h.announce();
  EXPECT_THAT(h.made(), ElementsAre("e7e8r"));
  EXPECT_TRUE(h.of(MomentKind::Made)[0].corrected);
}

// Issue 29: the queen asked, `correct` (the rook asked), then promote-q: the queen is what
// was first offered, so the move is made at once, not asked again, and not "corrected".
TEST(Recognizer, APieceChosenDuringThePromotionQuestionIsMadeOnceAndCorrectedOnlyIfItIs) {
  Hand back(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  back.move("e7", "e8").announce().press(Button::Correct).press(Button::PromoteQueen);
  EXPECT_EQ(back.of(MomentKind::Pending).size(), 2u);  // the queen, then the rook; no third
  EXPECT_THAT(back.made(), ElementsAre("e7e8q"));
  EXPECT_FALSE(back.of(MomentKind::Made)[0].corrected);
  // The knight named instead of the queen offered: made at once, and corrected.
  Hand knight(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  knight.move("e7", "e8").announce().press(Button::PromoteKnight);
  EXPECT_EQ(knight.of(MomentKind::Pending).size(), 1u);
  EXPECT_THAT(knight.made(), ElementsAre("e7e8n"));
  EXPECT_TRUE(knight.of(MomentKind::Made)[0].corrected);
  // `correct` round the four pieces back to the queen, then announce: not corrected.
  Hand round(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
  round.move("e7", "e8").announce();
  for (int i = 0; i < 4; ++i) round.press(Button::Correct);
  round.announce();
  EXPECT_THAT(round.made(), ElementsAre("e7e8q"));
  EXPECT_FALSE(round.of(MomentKind::Made)[0].corrected);
}

TEST(RecognizerAuto, WithdrawnPromotionIsNotMadeWithoutConfirmation) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"), RecognizerConfig{Completion::Auto, 1000});
  h.move("e7", "e8").wait(1000).press(Button::Correct);  // queen asked, corrected to rook
  h.up("e8").down("e8").wait(1000);                      // withdrawn, still again
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_TRUE(h.rec().pending());
  EXPECT_EQ(h.rec().pending_move().promotion(), chess::Rook);
}

// Resync: the holes found otherwise after a reconnect come in square order, but they
// changed together; any move the occupancy shows is read, whatever the square order.
TEST(Recognizer, ResyncIsJudgedByOccupancyNotSquareOrder) {
  Hand white(Position{});
  white.resync_up("e2").resync_down("e4").announce();  // e2 < e4: up first
  EXPECT_THAT(white.made(), ElementsAre("e2e4"));
  Hand black(fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
  black.resync_down("e5").resync_up("e7").announce();  // e5 < e7: down first
  EXPECT_THAT(black.made(), ElementsAre("e7e5"));
  EXPECT_THAT(black.of(MomentKind::Illegal), IsEmpty());
  // Castling found by a resync: f1, g1 filled before e1, h1 emptied.
  Hand castle(fen(kCastle));
  castle.resync_up("e1").resync_down("f1").resync_down("g1").resync_up("h1").announce();
  EXPECT_THAT(castle.made(), ElementsAre("e1h1"));
  EXPECT_THAT(irregularities(castle), IsEmpty());
}

TEST(Recognizer, ResyncHasNoFirstTouchedPiece) {
  // Both knights found in the hand; then b1 is put back and g1 goes to f3. No order says
  // which knight was touched first, so no touch-move is read into the square order: b1
  // was only lifted and not moved.
  Hand h(Position{});
  h.resync_up("b1").resync_up("g1").down("b1").down("f3").announce();
  EXPECT_THAT(h.made(), ElementsAre("g1f3"));
  EXPECT_THAT(irregularities(h), ElementsAre(Irregularity::TouchedNotMoved));
}

TEST(Recognizer, EventsAfterAResyncKeepTheirOrder) {
  // A real event after the resync is later than all of it: the pawn found lifted on d2
  // and then put down on d2 again is adjusting, not a move.
  Hand h(Position{});
  h.resync_up("d2").down("d2").announce();
  EXPECT_THAT(h.made(), IsEmpty());
  EXPECT_EQ(h.of(MomentKind::NoMove).size(), 1u);
}

// Auto completion: the board still for the settle time announces the move.
TEST(RecognizerAuto, MoveMadeWhenTheBoardIsStill) {
  Hand h(Position{}, RecognizerConfig{Completion::Auto, 1000});
  h.move("e2", "e4");
  const std::int64_t placed = h.now();
  EXPECT_EQ(h.rec().next_deadline(), placed + 1000);
  h.wait(999);
  EXPECT_THAT(h.made(), IsEmpty());
  h.wait(1);
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
  EXPECT_EQ(h.of(MomentKind::Made)[0].ms, placed + 1000);
  EXPECT_EQ(h.rec().next_deadline(), kNoDeadline);
}

TEST(RecognizerAuto, SlowCaptureIsNotCutShort) {
  Hand h(fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"),
         RecognizerConfig{Completion::Auto, 1000});
  h.up("d5").wait(500).up("e4").wait(900).down("d5").wait(1000);
  EXPECT_THAT(h.made(), ElementsAre("e4d5"));
}

TEST(RecognizerAuto, IllegalAnnouncedOnceWhileStill) {
  Hand h(Position{}, RecognizerConfig{Completion::Auto, 1000});
  h.move("e2", "e5").wait(1000).wait(5000);
  EXPECT_EQ(h.of(MomentKind::Illegal).size(), 1u);
  h.move("e5", "e4").wait(1000);
  EXPECT_THAT(h.made(), ElementsAre("e2e4"));
}

TEST(RecognizerAuto, PieceInTheHandIsNotAnAttempt) {
  // A player thinking with the knight in his hand: nothing is announced.
  Hand h(Position{}, RecognizerConfig{Completion::Auto, 1000});
  h.up("g1").wait(5000);
  EXPECT_THAT(h.of(MomentKind::Illegal), IsEmpty());
  h.down("f3").wait(1000);
  EXPECT_THAT(h.made(), ElementsAre("g1f3"));
}

TEST(RecognizerAuto, PromotionButtonRestartsTheSettleTime) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"), RecognizerConfig{Completion::Auto, 1000});
  h.move("e7", "e8").wait(800).press(Button::PromoteKnight).wait(900);
  EXPECT_THAT(h.made(), IsEmpty());
  h.wait(100);
  EXPECT_THAT(h.made(), ElementsAre("e7e8n"));
}

TEST(RecognizerAuto, AdjustedBoardStaysSilent) {
  Hand h(Position{}, RecognizerConfig{Completion::Auto, 1000});
  h.up("d2").down("d2").wait(2000);
  EXPECT_THAT(h.moments().size(), 1u);  // only "touched"
}

TEST(RecognizerAuto, PendingReadingConfirmsAfterAnotherSettle) {
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"), RecognizerConfig{Completion::Auto, 1000});
  h.move("e7", "e8").wait(1000);
  EXPECT_TRUE(h.rec().pending());
  h.wait(300).heard();
  h.press(Button::Correct);  // to rook: asked again, the settle time waits for it again
  h.wait(2000);
  EXPECT_THAT(h.made(), IsEmpty());
  h.heard().wait(999);
  EXPECT_THAT(h.made(), IsEmpty());
  h.wait(1);
  EXPECT_THAT(h.made(), ElementsAre("e7e8r"));
}

TEST(RecognizerAuto, Chess960KingOnItsCastlingSquareWaitsForTheRook) {
  // King f1, rook h1 with the right to castle: the king put on g1 first is a castling
  // under way, not Kg1, even after a pause of the settle time.
  const char* f = "1k6/8/8/8/8/8/8/5K1R w H - 0 1";
  Hand h(fen(f, true), RecognizerConfig{Completion::Auto, 1000});
  h.move("f1", "g1").wait(1000).wait(1000);
  EXPECT_THAT(h.made(), IsEmpty());
  h.move("h1", "f1").wait(1000);
  EXPECT_THAT(h.made(), ElementsAre("f1h1"));
  EXPECT_EQ(h.of(MomentKind::Made)[0].move.kind(), chess::Move::Castling);
  // Queen side: king b1 to c1 with the rook still on a1.
  Hand q(fen("1k6/8/8/8/8/8/8/RK6 w A - 0 1", true), RecognizerConfig{Completion::Auto, 1000});
  q.move("b1", "c1").wait(1000);
  EXPECT_THAT(q.made(), IsEmpty());
  q.move("a1", "d1").wait(1000);
  EXPECT_THAT(q.made(), ElementsAre("b1a1"));
}

TEST(RecognizerAuto, Chess960KingStillOnTheCastlingSquareLongerIsAKingMove) {
  // Three settle times of stillness: the player meant the king move.
  Hand h(fen("1k6/8/8/8/8/8/8/5K1R w H - 0 1", true), RecognizerConfig{Completion::Auto, 1000});
  h.move("f1", "g1");
  const std::int64_t placed = h.now();
  h.wait(2999);
  EXPECT_THAT(h.made(), IsEmpty());
  h.wait(1);
  EXPECT_THAT(h.made(), ElementsAre("f1g1"));
  EXPECT_EQ(h.of(MomentKind::Made)[0].move.kind(), chess::Move::Normal);
  EXPECT_EQ(h.of(MomentKind::Made)[0].ms, placed + 3000);
  // Without the right to castle it is a king move after the usual settle time.
  Hand plain(fen("1k6/8/8/8/8/8/8/5K1R w - - 0 1", true), RecognizerConfig{Completion::Auto, 1000});
  plain.move("f1", "g1").wait(1000);
  EXPECT_THAT(plain.made(), ElementsAre("f1g1"));
}

TEST(RecognizerAuto, Chess960KingOnItsCastlingSquareWithCastlingBlockedIsAKingMove) {
  // Queen side, king b8 to c8 with the rook home and the right kept, but a knight on d8
  // (the rook's square) makes the castling impossible now: no castling can be under way,
  // so the usual settle time makes the king move (a real game: selfplay-chess960 #18).
  Hand h(fen("rk1n4/8/8/8/8/8/8/6K1 b q - 0 1", true), RecognizerConfig{Completion::Auto, 1000});
  h.move("b8", "c8").wait(1000);
  EXPECT_THAT(h.made(), ElementsAre("b8c8"));
}

TEST(RecognizerAuto, PendingIsNotConfirmedBeforeItHasBeenHeard) {
  // The question takes seconds to say: the settle time that confirms it starts when it
  // has been said to its end, not when it was queued.
  Hand h(fen("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"), RecognizerConfig{Completion::Auto, 1000});
  h.move("e7", "e8").wait(1000);
  ASSERT_TRUE(h.rec().pending());
  EXPECT_TRUE(h.rec().awaiting_heard());
  EXPECT_EQ(h.rec().next_deadline(), kNoDeadline);
  h.wait(2500);  // still being said
  EXPECT_THAT(h.made(), IsEmpty());
  h.heard();
  const std::int64_t heard = h.now();
  EXPECT_EQ(h.rec().next_deadline(), heard + 1000);
  h.wait(999);
  EXPECT_THAT(h.made(), IsEmpty());
  h.press(Button::Correct).heard().wait(500);  // corrected while settling: asked again
  EXPECT_THAT(h.made(), IsEmpty());
  h.wait(500);
  EXPECT_THAT(h.made(), ElementsAre("e7e8r"));
}

TEST(RecognizerAuto, AnnounceButtonStillCompletesAtOnce) {
  Hand h(Position{}, RecognizerConfig{Completion::Auto, 1000});
  h.move("d2", "d4").announce();
  EXPECT_THAT(h.made(), ElementsAre("d2d4"));
  EXPECT_EQ(h.rec().next_deadline(), kNoDeadline);
}

}  // namespace
}  // namespace tactile::board
