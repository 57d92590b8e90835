// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/messages.h"

namespace tactile::dgt {

std::uint8_t piece_code(chess::Piece p) {
  if (p == chess::NoPiece) return 0;
  std::uint8_t code = 0;
  switch (chess::type_of(p)) {
    case chess::Pawn:
      code = 1;
      break;
    case chess::Rook:
      code = 2;
      break;
    case chess::Knight:
      code = 3;
      break;
    case chess::Bishop:
      code = 4;
      break;
    case chess::King:
      code = 5;
      break;
    case chess::Queen:
      code = 6;
      break;
    default:
      return 0;
  }
  return chess::color_of(p) == chess::White ? code : std::uint8_t(code + 6);
}

std::uint8_t field_of(chess::Square s) {
  const int file = s % 8, rank = s / 8 + 1;
  return std::uint8_t((8 - rank) * 8 + file);
}

chess::Square square_of_field(std::uint8_t field) {
  const int file = field % 8, rank = 8 - field / 8;
  return chess::Square((rank - 1) * 8 + file);
}

Fields fields_of(const chess::Position& p) {
  Fields f{};
  for (int s = 0; s < 64; ++s)
    f[field_of(chess::Square(s))] = piece_code(p.piece_on(chess::Square(s)));
  return f;
}

Bytes message(std::uint8_t id, const Bytes& data) {
  const std::size_t length = data.size() + 3;
  Bytes m{id, std::uint8_t((length >> 7) & 0x7f), std::uint8_t(length & 0x7f)};
  for (std::uint8_t b : data) m.push_back(b & 0x7f);
  return m;
}

Bytes board_dump(const Fields& board) {
  return message(kMsgBoardDump, Bytes(board.begin(), board.end()));
}

Bytes field_update(std::uint8_t field, std::uint8_t code) {
  return message(kMsgFieldUpdate, {field, code});
}

Bytes serial_number(std::string_view five_digits) {
  return message(kMsgSerial, Bytes(five_digits.begin(), five_digits.end()));
}

Bytes long_serial_number(std::string_view ten_digits) {
  return message(kMsgLongSerial, Bytes(ten_digits.begin(), ten_digits.end()));
}

Bytes bus_address(std::uint16_t address) {
  return message(kMsgBusAddress,
                 {std::uint8_t((address >> 7) & 0x7f), std::uint8_t(address & 0x7f)});
}

Bytes trademark(std::string_view text) {
  return message(kMsgTrademark, Bytes(text.begin(), text.end()));
}

Bytes version(std::uint8_t major, std::uint8_t minor) {
  return message(kMsgVersion, {major, minor});
}

Bytes stored_moves() {
  return message(kMsgStoredMoves, {0x6b});
}

Bytes battery() {
  // Charge 100 %, on mains: the tactile board has no battery to run down.
  return message(kMsgBattery, {100, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0});
}

namespace {

std::uint8_t bcd(int v) {
  return std::uint8_t((v / 10) << 4 | (v % 10));
}

// h m s of `ms` as the clock shows it: whole seconds, rounded up while time is left (a
// clock showing 0:00:00 has none), nothing below zero, hours 0..9.
void append_time(Bytes& b, std::int64_t ms) {
  std::int64_t s = ms <= 0 ? 0 : (ms + 999) / 1000;
  if (s > 9 * 3600 + 59 * 60 + 59) s = 9 * 3600 + 59 * 60 + 59;
  b.push_back(std::uint8_t(s / 3600));
  b.push_back(bcd(int(s / 60 % 60)));
  b.push_back(bcd(int(s % 60)));
}

}  // namespace

Bytes clock_bytes(const ClockFace& face) {
  Bytes b;
  const std::int64_t left = face.white_left ? face.white_ms : face.black_ms;
  const std::int64_t right = face.white_left ? face.black_ms : face.white_ms;
  append_time(b, right);
  append_time(b, left);
  std::uint8_t status = 0;
  if (!face.present) {
    status = 0x20;
  } else {
    if (face.running) status |= 0x01;
    if (face.to_move) {
      const bool left_moves = (*face.to_move == chess::White) == face.white_left;
      status |= left_moves ? 0x10 : 0x08;
    }
  }
  b.push_back(status);
  return b;
}

Bytes clock(const ClockFace& face) {
  return message(kMsgClock, clock_bytes(face));
}

Bytes clock_ack(std::uint8_t sub, std::uint8_t ack0) {
  return message(kMsgClock,
                 {0x0a, std::uint8_t(ack0 & 0x7f), std::uint8_t(sub & 0x7f), 0x0a, 0, 0, 0});
}

Bytes bus_message(std::uint8_t id, std::uint16_t address, const Bytes& data) {
  Bytes with_address{std::uint8_t((address >> 7) & 0x7f), std::uint8_t(address & 0x7f)};
  with_address.insert(with_address.end(), data.begin(), data.end());
  with_address.push_back(0);  // the checksum's place, counted in the length
  Bytes m = message(id, with_address);
  unsigned sum = 0;
  for (std::size_t i = 0; i + 1 < m.size(); ++i) sum += m[i];
  m.back() = std::uint8_t(sum & 0x7f);
  return m;
}

void append_bus_change(Bytes& changes, std::uint8_t field, std::uint8_t code) {
  changes.push_back(std::uint8_t(0x40 | code));
  changes.push_back(field);
}

}  // namespace tactile::dgt
