// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes tactiled's DGT board (core/dgt): any bytes from a host, in any chunks at any times,
// never crash the command reader or the board; a valid command sent once the garbage is
// older than 500 ms is always read whole; whatever the host sends, the board reported stays
// the game's position (a host's bytes change nothing), every message sent is well formed (its
// id has bit 7 set, its length is its size, its data bytes have bit 7 clear) and a bus
// reply's checksum is right.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

#include "core/chess/position.h"
#include "core/dgt/board_emulation.h"
#include "core/dgt/command_reader.h"
#include "core/dgt/messages.h"

using namespace tactile;
using namespace tactile::dgt;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool bus_reply(std::uint8_t id) {
  return id == kMsgBusBoard || id == kMsgBusClock || id == kMsgBusChanges ||
         id == kMsgBusFromStart || id == kMsgBusPing || id == kMsgBusStartGame ||
         id == kMsgBusVersion;
}

// Every message in `out` well formed; returns how many.
void check_messages(const Bytes& out, bool bus_mode) {
  std::size_t at = 0;
  while (at < out.size()) {
    check(at + 3 <= out.size());
    check(out[at] & 0x80);
    const std::size_t length = std::size_t(out[at + 1]) << 7 | out[at + 2];
    check(length >= 3 && at + length <= out.size());
    for (std::size_t i = at + 1; i < at + length; ++i) check((out[i] & 0x80) == 0);
    if (bus_mode && bus_reply(out[at])) {
      unsigned sum = 0;
      for (std::size_t i = at; i + 1 < at + length; ++i) sum += out[i];
      check(out[at + length - 1] == (sum & 0x7f));
    }
    at += length;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const chess::Position game =
      chess::Position::from_fen("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1");
  DgtBoardEmulation board(game);
  DgtCommandReader reader;
  const ClockFace face{.white_ms = in.ConsumeIntegralInRange<std::int64_t>(-1000, 40'000'000),
                       .black_ms = in.ConsumeIntegralInRange<std::int64_t>(-1000, 40'000'000),
                       .running = in.ConsumeBool(),
                       .to_move = chess::Black};
  std::int64_t now = 0;
  std::vector<Command> commands;
  std::vector<ReadError> errors;
  while (in.remaining_bytes() > 8) {
    const std::vector<std::uint8_t> chunk =
        in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(1, 64));
    now += in.ConsumeIntegralInRange<std::int64_t>(0, 700);
    commands.clear();
    reader.feed(chunk, now, commands, errors);
    for (const Command& c : commands) {
      check(c.kind != Command::Kind::Single || is_single_command(c.id));
      check(c.kind != Command::Kind::Bus || is_bus_command(c.id));
      const bool bus_mode = board.mode() == DgtBoardEmulation::Mode::Bus;
      Bytes out;
      board.command(c, face, now, out);
      check_messages(out, bus_mode);
      check(!command_name(c).empty());
    }
    Bytes out;
    board.clock(face, now, out);
    check_messages(out, false);
    check(board.shown() == fields_of(game));
  }
  // After garbage, half a second's silence, then a whole bus frame: read whole.
  now += kIncompleteMs;
  commands.clear();
  const std::uint8_t frame[] = {kBusVersion, 0x00, 0x24, std::uint8_t((kBusVersion + 0x24) & 0x7f)};
  reader.feed(frame, now, commands, errors);
  check(commands.size() == 1 && commands[0].kind == Command::Kind::Bus &&
        commands[0].id == kBusVersion && commands[0].address == kBoardAddress);
  return 0;
}
