// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the reader of a DGT board's messages (core/dgt/message_reader.h, board = dgt): any
// bytes from a board, in any chunks, with resets between (the board unplugged), never crash
// it; every message read has a length the protocol allows and data bytes with bit 7 clear;
// a dump or field update read is in range; and after any garbage, a whole field update is
// read whole once it begins with its header.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

#include "core/dgt/message_reader.h"

using namespace tactile;
using namespace tactile::dgt;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  DgtMessageReader reader;
  std::vector<BoardMessage> messages;
  std::vector<std::string> errors;
  while (in.remaining_bytes() > 0) {
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) reader.reset();
    const std::vector<std::uint8_t> chunk =
        in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(1, 128));
    messages.clear();
    reader.feed(chunk, messages, errors);
    for (const BoardMessage& m : messages) {
      check(m.id & 0x80);
      check(m.data.size() + 3 <= kMaxMessageBytes);
      for (std::uint8_t b : m.data) check((b & 0x80) == 0);
      Fields fields{};
      std::vector<OddPiece> odd;
      if (read_dump(m, fields, odd)) {
        for (std::uint8_t code : fields) check(code <= kLastPieceCode);
        for (const OddPiece& p : odd)
          check(p.field < 64 && p.code > kLastPieceCode && p.code <= kLastCode &&
                fields[p.field] == 0);
      }
      std::uint8_t field = 0, code = 0, odd_code = 0;
      if (read_field_update(m, field, code, odd_code))
        check(field < 64 && code <= kLastPieceCode && (odd_code == 0 || code == 0));
    }
  }
  // A whole field update after whatever came: read whole, alone.
  messages.clear();
  const std::uint8_t update[] = {kMsgFieldUpdate, 0x00, 0x05, 36, 6};
  reader.feed(update, messages, errors);
  check(messages.size() == 1 && messages[0] == (BoardMessage{kMsgFieldUpdate, {36, 6}}));
  return 0;
}
