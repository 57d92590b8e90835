// SPDX-License-Identifier: GPL-3.0-or-later
// Move announcements (D.2.1) in German, English and Russian.
#include "core/record/move_phrase.h"

#include <gtest/gtest.h>

#include "core/chess/uci.h"

namespace tactile::record {
namespace {

using chess::Move;
using chess::Position;
using namespace chess;  // squares

constexpr Language de = Language::German, en = Language::English, ru = Language::Russian;

// The phrase of a move given in UCI, after checking the move is legal.
std::string say(const char* fen, const char* uci, Language lang) {
  Position pos = Position::from_fen(fen);
  Move m = parse_uci(pos, uci);
  EXPECT_TRUE(pos.is_legal(m)) << fen << " " << uci;
  return move_phrase(pos, m, lang);
}

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(MovePhrase, PieceAndDestination) {
  EXPECT_EQ(say(kStart, "g1f3", de), "Springer Felix drei");
  EXPECT_EQ(say(kStart, "e2e4", de), "Bauer Eva vier");
  EXPECT_EQ(say(kStart, "g1f3", en), "Knight Felix three");
  EXPECT_EQ(say(kStart, "e2e4", ru), "Пешка Ева четыре");
  EXPECT_EQ(say(kStart, "b1c3", ru), "Конь Цезарь три");
  const char* after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
  EXPECT_EQ(say(after_e4, "g8f6", de), "Springer Felix sechs");
  EXPECT_EQ(say(after_e4, "h7h5", de), "Bauer Hector fuenf");
}

TEST(MovePhrase, CapturesNameTheFromSquare) {
  const char* fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
  EXPECT_EQ(say(fen, "e4d5", de), "Bauer Eva vier schlaegt David fuenf");
  EXPECT_EQ(say(fen, "e4d5", en), "Pawn Eva four takes David five");
  EXPECT_EQ(say(fen, "e4d5", ru), "Пешка Ева четыре бьёт Давид пять");
  const char* queen = "4k3/8/8/7p/8/8/8/3QK3 w - - 0 1";
  EXPECT_EQ(say(queen, "d1h5", de), "Dame David eins schlaegt Hector fuenf Schach");
}

TEST(MovePhrase, TheFromSquareWhenAnotherPieceCouldGoThere) {
  const char* fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
  EXPECT_EQ(say(fen, "b1d2", de), "Springer Bella eins nach David zwei");
  EXPECT_EQ(say(fen, "f3d2", de), "Springer Felix drei nach David zwei");
  EXPECT_EQ(say(fen, "b1c3", de), "Springer Caesar drei");
  EXPECT_EQ(say(fen, "b1d2", en), "Knight Bella one to David two");
  EXPECT_EQ(say(fen, "b1d2", ru), "Конь Белла один на Давид два");
}

TEST(MovePhrase, APinnedPieceDoesNotMakeAmbiguity) {
  // The knight on d1 is pinned by the rook on a1: only the h3 knight can go to f2.
  EXPECT_EQ(say("4k3/8/8/8/8/7N/8/r2NK3 w - - 0 1", "h3f2", de), "Springer Felix zwei");
}

TEST(MovePhrase, Castling) {
  Position pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move short_castle = Move::make(E1, H1, Move::Castling);
  Move long_castle = Move::make(E1, A1, Move::Castling);
  ASSERT_TRUE(pos.is_legal(short_castle));
  ASSERT_TRUE(pos.is_legal(long_castle));
  EXPECT_EQ(move_phrase(pos, short_castle, de), "Kurze Rochade");
  EXPECT_EQ(move_phrase(pos, long_castle, de), "Lange Rochade");
  EXPECT_EQ(move_phrase(pos, short_castle, en), "Short castle");
  EXPECT_EQ(move_phrase(pos, long_castle, ru), "Длинная рокировка");
  Position black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(move_phrase(black, Move::make(E8, H8, Move::Castling), ru), "Короткая рокировка");
}

TEST(MovePhrase, Chess960CastlingByTheRooksSide) {
  // King g1, rooks b1 and h1: g1xh1 is the king-side castling (the king stays on g1),
  // g1xb1 the queen-side one.
  Position pos = Position::from_fen("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1");
  Move king_side = Move::make(G1, H1, Move::Castling);
  Move queen_side = Move::make(G1, B1, Move::Castling);
  ASSERT_TRUE(pos.is_legal(king_side));
  ASSERT_TRUE(pos.is_legal(queen_side));
  EXPECT_EQ(move_phrase(pos, king_side, de), "Kurze Rochade");
  EXPECT_EQ(move_phrase(pos, queen_side, de), "Lange Rochade");
}

TEST(MovePhrase, CastlingWithCheck) {
  EXPECT_EQ(move_phrase(Position::from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1"),
                        Move::make(E1, H1, Move::Castling), de),
            "Kurze Rochade Schach");
}

TEST(MovePhrase, PromotionNamesTheChosenPiece) {
  const char* fen = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
  EXPECT_EQ(say(fen, "e7e8q", de), "Bauer Eva acht wird Dame");
  EXPECT_EQ(say(fen, "e7e8n", de), "Bauer Eva acht wird Springer");
  EXPECT_EQ(say(fen, "e7d8r", de), "Bauer Eva sieben schlaegt David acht wird Turm");
  EXPECT_EQ(say(fen, "e7e8q", en), "Pawn Eva eight promotes to queen");
  EXPECT_EQ(say(fen, "e7e8q", ru), "Пешка Ева восемь превращается в ферзя");
  EXPECT_EQ(say(fen, "e7e8n", ru), "Пешка Ева восемь превращается в коня");
  EXPECT_EQ(say(fen, "e7e8b", ru), "Пешка Ева восемь превращается в слона");
  EXPECT_EQ(say(fen, "e7e8r", ru), "Пешка Ева восемь превращается в ладью");
}

TEST(MovePhrase, EnPassant) {
  const char* fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
  EXPECT_EQ(say(fen, "e5d6", de), "Bauer Eva fuenf schlaegt David sechs en passant");
  EXPECT_EQ(say(fen, "e5d6", en), "Pawn Eva five takes David six en passant");
  EXPECT_EQ(say(fen, "e5d6", ru), "Пешка Ева пять бьёт Давид шесть на проходе");
}

TEST(MovePhrase, CheckAndMate) {
  EXPECT_EQ(say("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", de), "Turm Anna acht Schach");
  const char* back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
  EXPECT_EQ(say(back_rank, "a1a8", de), "Turm Anna acht Matt");
  EXPECT_EQ(say(back_rank, "a1a8", en), "Rook Anna eight checkmate");
  EXPECT_EQ(say(back_rank, "a1a8", ru), "Ладья Анна восемь мат");
  EXPECT_EQ(say("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1d2", ru), "Король Давид два");
}

TEST(MovePhrase, SquaresAndPieces) {
  EXPECT_EQ(square_words(A1, de), "Anna eins");
  EXPECT_EQ(square_words(H8, en), "Hector eight");
  EXPECT_EQ(square_words(E4, ru), "Ева четыре");
  EXPECT_EQ(square_words(C5, de), "Caesar fuenf");
  EXPECT_EQ(piece_words(chess::Bishop, de), "Laeufer");
  EXPECT_EQ(piece_words(chess::King, de), "Koenig");
  EXPECT_EQ(piece_words(chess::Rook, ru), "Ладья");
}

// D.2.1's names in every language; English has FIDE's English "Cesar", German "Caesar".
TEST(MovePhrase, FileNamesInEveryLanguage) {
  const char* files[] = {"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"};
  for (int f = 0; f < 8; ++f)
    EXPECT_EQ(square_words(chess::make_square(f, 0), en), std::string(files[f]) + " one");
  EXPECT_EQ(square_words(C3, de), "Caesar drei");
  EXPECT_EQ(square_words(C3, ru), "Цезарь три");
  EXPECT_EQ(square_words(H1, ru), "Гектор один");
}

TEST(MovePhrase, LettersOnRequest) {
  const SquareWording letters{.names = SquareNames::Letters};
  // A lone English "a" is read as the article: the letter is joined to the rank.
  EXPECT_EQ(square_words(A8, en, letters), "a-eight");
  EXPECT_EQ(square_words(E4, de, letters), "e vier");
  EXPECT_EQ(square_words(D5, ru, letters), "дэ пять");
  Position pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_EQ(move_phrase(pos, parse_uci(pos, "e4d5"), en, letters), "Pawn e-four takes d-five");
}

TEST(MovePhrase, GermanRanksOnRequest) {
  const SquareWording german{.ranks = RankWords::German};
  Position pos = Position::from_fen(kStart);
  EXPECT_EQ(move_phrase(pos, parse_uci(pos, "g1f3"), en), "Knight Felix three");
  EXPECT_EQ(move_phrase(pos, parse_uci(pos, "g1f3"), en, german), "Knight Felix drei");
  EXPECT_EQ(square_words(E4, en, german), "Eva vier");
  EXPECT_EQ(square_words(E5, de, german), "Eva fuenf");  // German's own ranks already
  // The Russian voice reads Latin text as English: the German numbers in Cyrillic.
  EXPECT_EQ(square_words(E4, ru, german), "Ева фир");
  EXPECT_EQ(square_words(B7, en, {SquareNames::Letters, RankWords::German}), "b-sieben");
}

}  // namespace
}  // namespace tactile::record
