// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/board_emulation.h"

namespace tactile::dgt {
namespace {

void keep_bounded(Bytes& changes) {
  if (changes.size() > kMaxBusChanges)
    changes.erase(changes.begin(),
                  changes.begin() + std::ptrdiff_t(changes.size() - kMaxBusChanges));
}

}  // namespace

DgtBoardEmulation::DgtBoardEmulation(const chess::Position& game)
    : shown_(fields_of(game)), game_(shown_) {}

std::string DgtBoardEmulation::command(const Command& c, const ClockFace& face, std::int64_t now,
                                       Bytes& out) {
  if (c.kind == Command::Kind::Bus) return bus(c, face, out);
  if (c.kind == Command::Kind::Clock) {
    // A host does not set a tournament's clock: acked so that it goes on, never obeyed.
    if (!updating()) return "not acked outside update mode";
    append(out, clock_ack(c.sub));
    return "acked, not obeyed";
  }
  // Bus mode answers its frames only: a single command but reset is not heard there.
  if (mode_ == Mode::Bus && c.id != kReset && c.id != kBusMode) return "in bus mode: not answered";
  switch (c.id) {
    case kReset:
      mode_ = Mode::Idle;
      ignore_next_ping_ = false;
      break;
    case kSendClock:
      append(out, dgt::clock(face));
      break;
    case kSendBoard:
      append(out, board_dump(shown_));
      break;
    case kUpdate:
    case kUpdateBoard:
    case kUpdateNice:
      mode_ = c.id == kUpdate        ? Mode::Update
              : c.id == kUpdateBoard ? Mode::UpdateBoard
                                     : Mode::UpdateNice;
      // The clock as it stands is the first one sent unasked.
      last_clock_.clear();
      last_clock_ms_ = -1;
      clock(face, now, out);
      break;
    case kSerial:
      append(out, serial_number(kSerialNumber));
      break;
    case kLongSerial:
      append(out, long_serial_number(kLongSerialNumber));
      break;
    case kBusAddress:
      append(out, bus_address(kBoardAddress));
      break;
    case kTrademark:
      append(out, trademark(kTrademarkText));
      break;
    case kVersion:
      append(out, version(kVersionMajor, kVersionMinor));
      break;
    case kStoredMoves:
      append(out, stored_moves());
      break;
    case kBattery:
      append(out, battery());
      break;
    case kBusMode:
      mode_ = Mode::Bus;
      changes_.clear();
      break;
    default:
      return "unknown";
  }
  return "";
}

std::string DgtBoardEmulation::bus(const Command& c, const ClockFace& face, Bytes& out) {
  if (mode_ != Mode::Bus) return "outside bus mode: not answered";
  // Address 0 is every board's; another address another board's on the bus.
  if (c.address != 0 && c.address != kBoardAddress) return "for another board: not answered";
  switch (c.id) {
    case kBusClock:
      append(out, bus_message(kMsgBusClock, kBoardAddress, clock_bytes(face)));
      break;
    case kBusBoard:
      append(out, bus_message(kMsgBusBoard, kBoardAddress, Bytes(shown_.begin(), shown_.end())));
      break;
    case kBusChanges:
      last_changes_ = std::move(changes_);
      changes_.clear();
      [[fallthrough]];
    case kBusRepeat:
      append(out, bus_message(kMsgBusChanges, kBoardAddress, last_changes_));
      break;
    case kBusStartGame:
      from_start_.clear();
      append(out, bus_message(kMsgBusStartGame, kBoardAddress, {}));
      break;
    case kBusFromStart:
      append(out, bus_message(kMsgBusFromStart, kBoardAddress, from_start_));
      break;
    case kBusPing:
      if (ignore_next_ping_) {
        ignore_next_ping_ = false;
        return "ignored as asked";
      }
      append(out, bus_message(kMsgBusPing, kBoardAddress, {}));
      break;
    case kBusIgnorePing:
      ignore_next_ping_ = true;
      break;
    case kBusVersion:
      append(out, bus_message(kMsgBusVersion, kBoardAddress, {kVersionMajor, kVersionMinor}));
      break;
    default:
      return "unknown";
  }
  return "";
}

void DgtBoardEmulation::show(std::uint8_t f, std::uint8_t code, Bytes& out) {
  if (shown_[f] == code) return;
  shown_[f] = code;
  if (updating()) append(out, field_update(f, code));
  append_bus_change(changes_, f, code);
  append_bus_change(from_start_, f, code);
  keep_bounded(changes_);
  keep_bounded(from_start_);
}

void DgtBoardEmulation::hole(chess::Square s, bool occupied, Bytes& out) {
  const std::uint8_t f = field_of(s);
  if (!occupied) {
    if (shown_[f] != 0) lifted_.push_back(shown_[f]);
    show(f, 0, out);
    return;
  }
  // The piece lifted last is the one put down; none lifted: the game's piece there (a
  // piece put back from beside the board).
  std::uint8_t code = game_[f];
  if (!lifted_.empty()) {
    code = lifted_.back();
    lifted_.pop_back();
  }
  show(f, code, out);
}

void DgtBoardEmulation::follow(const chess::Position& game, Bytes& out) {
  game_ = fields_of(game);
  lifted_.clear();
  // The squares emptied first, then those filled: in order, the updates give the position.
  for (std::uint8_t f = 0; f < 64; ++f)
    if (game_[f] == 0) show(f, 0, out);
  for (std::uint8_t f = 0; f < 64; ++f)
    if (game_[f] != 0) show(f, game_[f], out);
}

void DgtBoardEmulation::clock(const ClockFace& face, std::int64_t now, Bytes& out) {
  if (mode_ != Mode::Update && mode_ != Mode::UpdateNice) return;
  const Bytes bytes = clock_bytes(face);
  const bool changed = bytes != last_clock_;
  const bool due =
      mode_ == Mode::Update && (last_clock_ms_ < 0 || now - last_clock_ms_ >= kClockEveryMs);
  if (!changed && !due) return;
  append(out, message(kMsgClock, bytes));
  last_clock_ = bytes;
  last_clock_ms_ = now;
}

std::int64_t DgtBoardEmulation::clock_deadline(const ClockFace& face, std::int64_t now) const {
  if (mode_ == Mode::Update) return last_clock_ms_ < 0 ? now : last_clock_ms_ + kClockEveryMs;
  if (mode_ != Mode::UpdateNice || !face.running || !face.to_move) return -1;
  // The running side's whole seconds shown change when its time crosses the next second.
  const std::int64_t left = *face.to_move == chess::White ? face.white_ms : face.black_ms;
  if (left <= 0) return -1;
  return now + (left - 1) % 1000 + 1;
}

}  // namespace tactile::dgt
