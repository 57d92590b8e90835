// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/board_emulation.h"

#include <gtest/gtest.h>

#include "core/chess/uci.h"

namespace tactile::dgt {
namespace {

using chess::Position;

const ClockFace kFace{.white_ms = 300'000, .black_ms = 300'000, .to_move = chess::White};

Command single(std::uint8_t id) {
  return Command{.kind = Command::Kind::Single, .id = id};
}
Command bus(std::uint8_t id, std::uint16_t address = 0) {
  return Command{.kind = Command::Kind::Bus, .id = id, .address = address};
}

// The field updates in `bytes` (anything else there fails the test), as (field, code).
std::vector<std::pair<int, int>> updates(const Bytes& bytes) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < bytes.size(); i += 5) {
    EXPECT_LE(i + 5, bytes.size());
    if (i + 5 > bytes.size()) break;
    EXPECT_EQ(bytes[i], 0x8e);
    EXPECT_EQ(bytes[i + 1], 0x00);
    EXPECT_EQ(bytes[i + 2], 0x05);
    out.emplace_back(bytes[i + 3], bytes[i + 4]);
  }
  return out;
}

struct Board {
  Position game;
  DgtBoardEmulation dgt;
  explicit Board(const char* fen) : game(Position::from_fen(fen)), dgt(game) {
    Bytes out;
    dgt.command(single(kUpdateBoard), kFace, 0, out);
    EXPECT_TRUE(out.empty());  // 0x44: no clock
  }
  Bytes lift(chess::Square s) {
    Bytes out;
    dgt.hole(s, false, out);
    return out;
  }
  Bytes put(chess::Square s) {
    Bytes out;
    dgt.hole(s, true, out);
    return out;
  }
  Bytes made(const char* uci) {
    game.play(chess::parse_uci(game, uci));
    Bytes out;
    dgt.follow(game, out);
    EXPECT_EQ(dgt.shown(), fields_of(game));
    return out;
  }
};

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
using U = std::vector<std::pair<int, int>>;

TEST(DgtBoardEmulation, PawnMoveLiftedEmptyAtOncePutDownWithItsCode) {
  Board b(kStart);
  EXPECT_EQ(updates(b.lift(chess::E2)), (U{{52, 0}}));
  EXPECT_EQ(updates(b.put(chess::E4)), (U{{36, 1}}));
  EXPECT_TRUE(b.made("e2e4").empty());  // the board reported is the game's already
}

TEST(DgtBoardEmulation, CaptureTheCapturedLiftedFirstOrSecond) {
  Board b("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  // The captured pawn first (d5 = field 27), then the capturer (e4 = 36) put on d5.
  EXPECT_EQ(updates(b.lift(chess::D5)), (U{{27, 0}}));
  EXPECT_EQ(updates(b.lift(chess::E4)), (U{{36, 0}}));
  EXPECT_EQ(updates(b.put(chess::D5)), (U{{27, 1}}));
  EXPECT_TRUE(b.made("e4d5").empty());
}

TEST(DgtBoardEmulation, CaptureOrderTheOtherWayCorrectedOnceMade) {
  Board b("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  b.lift(chess::E4);
  b.lift(chess::D5);
  // The piece lifted last is the black pawn: d5 shows it until the move is made.
  EXPECT_EQ(updates(b.put(chess::D5)), (U{{27, 7}}));
  EXPECT_EQ(updates(b.made("e4d5")), (U{{27, 1}}));
}

TEST(DgtBoardEmulation, CastlingGivesFourUpdates) {
  Board b("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Bytes all;
  for (const Bytes& m : {b.lift(chess::E1), b.lift(chess::H1), b.put(chess::G1), b.put(chess::F1)})
    all.insert(all.end(), m.begin(), m.end());
  // The rook was lifted last: g1 shows the rook until the move is made, then the king.
  EXPECT_EQ(updates(all), (U{{60, 0}, {63, 0}, {62, 2}, {61, 5}}));
  EXPECT_EQ(updates(b.made("e1g1")), (U{{61, 2}, {62, 5}}));
  // The king first, then the rook: four updates, nothing to correct.
  Board q("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  all.clear();
  for (const Bytes& m : {q.lift(chess::E8), q.put(chess::C8), q.lift(chess::A8), q.put(chess::D8)})
    all.insert(all.end(), m.begin(), m.end());
  EXPECT_EQ(updates(all), (U{{4, 0}, {2, 11}, {0, 0}, {3, 8}}));
  EXPECT_TRUE(q.made("e8c8").empty());
}

TEST(DgtBoardEmulation, Chess960CastlingTheKingOnTheRooksSquare) {
  // King f1, rook g1 (X-FEN K: the outermost rook); O-O puts the king on g1, the rook on f1:
  // the two swap. Hand: king lifted, rook lifted, king put on g1, rook on f1.
  Board b("r3k2r/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1");
  ASSERT_TRUE(b.game.chess960());
  Bytes all;
  for (const Bytes& m : {b.lift(chess::F1), b.lift(chess::G1), b.put(chess::G1), b.put(chess::F1)})
    all.insert(all.end(), m.begin(), m.end());
  // The rook lifted last shows on g1 and the king on f1 until the move is made: as it was.
  EXPECT_EQ(updates(all), (U{{61, 0}, {62, 0}, {62, 2}, {61, 5}}));
  // Made (king takes rook in UCI), the two squares are sent again as the game has them.
  EXPECT_EQ(updates(b.made("f1g1")), (U{{61, 2}, {62, 5}}));
}

TEST(DgtBoardEmulation, EnPassantAndPromotion) {
  Board b("4k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 1");
  b.lift(chess::E5);
  b.put(chess::D6);
  EXPECT_EQ(updates(b.lift(chess::D5)), (U{{27, 0}}));
  EXPECT_TRUE(b.made("e5d6").empty());
  b.game = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  Bytes ignored;
  b.dgt.follow(b.game, ignored);
  b.lift(chess::A7);
  // The pawn put on a8 is a pawn until the move is made, a queen then.
  EXPECT_EQ(updates(b.put(chess::A8)), (U{{0, 1}}));
  EXPECT_EQ(updates(b.made("a7a8q")), (U{{0, 6}}));
}

TEST(DgtBoardEmulation, IllegalMovePutBackShowsTheBoardAgain) {
  Board b(kStart);
  b.lift(chess::B1);
  EXPECT_EQ(updates(b.put(chess::B3)), (U{{41, 3}}));  // (8 - 3) * 8 + 1
  b.lift(chess::B3);
  EXPECT_EQ(updates(b.put(chess::B1)), (U{{57, 3}}));
  EXPECT_EQ(b.dgt.shown(), fields_of(b.game));
}

TEST(DgtBoardEmulation, NothingUnaskedAfterResetUpdatesKeptForTheBoard) {
  Board b(kStart);
  Bytes out;
  b.dgt.command(single(kReset), kFace, 0, out);
  EXPECT_TRUE(b.lift(chess::E2).empty());
  b.dgt.command(single(kSendBoard), kFace, 0, out);
  ASSERT_EQ(out.size(), 67u);
  EXPECT_EQ(out[3 + 52], 0);
}

TEST(DgtBoardEmulation, ClockInUpdateModes) {
  DgtBoardEmulation d(Position::from_fen(kStart));
  ClockFace f = kFace;
  f.running = true;
  Bytes out;
  d.command(single(kUpdate), f, 0, out);
  EXPECT_EQ(out, clock(f));  // the clock as it stands at once
  out.clear();
  d.clock(f, 999, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(d.clock_deadline(f, 999), 1000);
  d.clock(f, 1000, out);  // unchanged, but a second has gone
  EXPECT_EQ(out, clock(f));
  out.clear();
  // 0x4b: only when what it shows changes.
  d.command(single(kUpdateNice), f, 1000, out);
  out.clear();
  d.clock(f, 5000, out);
  EXPECT_TRUE(out.empty());
  f.white_ms = 299'000;
  d.clock(f, 5001, out);
  EXPECT_EQ(out, clock(f));
  EXPECT_EQ(d.clock_deadline(f, 6000), 7000);
  f.white_ms = 298'500;
  EXPECT_EQ(d.clock_deadline(f, 6000), 6500);
}

TEST(DgtBoardEmulation, ClockCommandsAckedOnlyInUpdateMode) {
  DgtBoardEmulation d(Position::from_fen(kStart));
  const Command beep{.kind = Command::Kind::Clock, .id = kClockCommand, .sub = 0x0b};
  Bytes out;
  EXPECT_EQ(d.command(beep, kFace, 0, out), "not acked outside update mode");
  EXPECT_TRUE(out.empty());
  d.command(single(kUpdateBoard), kFace, 0, out);
  EXPECT_EQ(d.command(beep, kFace, 0, out), "acked, not obeyed");
  EXPECT_EQ(out, clock_ack(0x0b));
}

TEST(DgtBoardEmulation, AnswersEachSingleCommand) {
  DgtBoardEmulation d(Position::from_fen(kStart));
  auto answer = [&](std::uint8_t id) {
    Bytes out;
    d.command(single(id), kFace, 0, out);
    return out;
  };
  EXPECT_EQ(answer(kSerial), serial_number("00036"));
  EXPECT_EQ(answer(kBusAddress), bus_address(36));
  EXPECT_EQ(answer(kVersion), version(1, 6));
  EXPECT_EQ(answer(kStoredMoves), stored_moves());
  EXPECT_EQ(answer(kLongSerial)[0], 0xa2);
  EXPECT_EQ(answer(kBattery)[0], 0xa0);
  const Bytes t = answer(kTrademark);
  EXPECT_EQ(std::string(t.begin() + 3, t.begin() + 26), "Digital Game Technology");
  EXPECT_EQ(answer(kSendClock), clock(kFace));
}

TEST(DgtBoardEmulation, BusModeAnswersOnlyWhenPolled) {
  Board b(kStart);
  Bytes out;
  // A bus frame before bus mode: no answer.
  EXPECT_EQ(b.dgt.command(bus(kBusVersion), kFace, 0, out), "outside bus mode: not answered");
  b.dgt.command(single(kBusMode), kFace, 0, out);
  b.dgt.command(bus(kBusVersion), kFace, 0, out);
  EXPECT_EQ(out, (Bytes{0x89, 0x00, 0x08, 0x00, 0x24, 0x01, 0x06, 0x3c}));
  out.clear();
  // Moves are not sent unasked; polled, they come in a changes list.
  EXPECT_TRUE(b.lift(chess::E2).empty());
  EXPECT_TRUE(b.put(chess::E4).empty());
  b.dgt.command(bus(kBusChanges, 36), kFace, 0, out);
  // 0x85, length 3 + 2 + 4 + 1 = 10, address 0 0x24, 0x40|0 52, 0x40|1 36, checksum:
  // 0x85 + 0x0a + 0x24 + 0x40 + 0x34 + 0x41 + 0x24 = 0x18c, & 0x7f = 0x0c.
  EXPECT_EQ(out, (Bytes{0x85, 0x00, 0x0a, 0x00, 0x24, 0x40, 52, 0x41, 36, 0x0c}));
  out.clear();
  b.dgt.command(bus(kBusRepeat), kFace, 0, out);
  EXPECT_EQ(out, (Bytes{0x85, 0x00, 0x0a, 0x00, 0x24, 0x40, 52, 0x41, 36, 0x0c}));
  out.clear();
  b.dgt.command(bus(kBusChanges), kFace, 0, out);
  EXPECT_EQ(out.size(), 6u);  // none since
  out.clear();
  // Another board's address: silence. The ping ignored once when asked.
  EXPECT_EQ(b.dgt.command(bus(kBusPing, 5), kFace, 0, out), "for another board: not answered");
  b.dgt.command(bus(kBusIgnorePing), kFace, 0, out);
  EXPECT_EQ(b.dgt.command(bus(kBusPing), kFace, 0, out), "ignored as asked");
  EXPECT_TRUE(out.empty());
  b.dgt.command(bus(kBusPing), kFace, 0, out);
  // 0x87 + 0x06 + 0x24 = 0xb1, & 0x7f = 0x31.
  EXPECT_EQ(out, (Bytes{0x87, 0x00, 0x06, 0x00, 0x24, 0x31}));
  out.clear();
  // Single commands are not answered in bus mode; reset leaves it.
  EXPECT_EQ(b.dgt.command(single(kSendBoard), kFace, 0, out), "in bus mode: not answered");
  EXPECT_TRUE(out.empty());
  b.dgt.command(bus(kBusBoard), kFace, 0, out);
  ASSERT_EQ(out.size(), 3u + 2 + 64 + 1);
  EXPECT_EQ(out[5 + 36], 1);
  EXPECT_EQ(out[5 + 52], 0);
  b.dgt.command(single(kReset), kFace, 0, out);
  EXPECT_EQ(b.dgt.mode(), DgtBoardEmulation::Mode::Idle);
}

}  // namespace
}  // namespace tactile::dgt
