// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/message_reader.h"

#include "core/dgt/command_reader.h"

namespace tactile::dgt {

void DgtMessageReader::feed(std::span<const std::uint8_t> bytes, std::vector<BoardMessage>& out,
                            std::vector<std::string>& errors) {
  for (const std::uint8_t b : bytes) {
    if (b & 0x80) {
      flush_skipped(errors);
      if (in_message_)
        errors.push_back("message " + hex_byte(id_) + " cut short by " + hex_byte(b) + ": dropped");
      begin(b);
      continue;
    }
    if (!in_message_) {
      ++skipped_;
      continue;
    }
    if (header_ < 3) {
      length_ = length_ << 7 | b;
      if (++header_ < 3) continue;
      if (length_ < 3 || length_ > kMaxMessageBytes) {
        errors.push_back("message " + hex_byte(id_) + " of length " + std::to_string(length_) +
                         ": dropped");
        in_message_ = false;
        continue;
      }
    } else {
      data_.push_back(b);
    }
    if (data_.size() + 3 == length_) {
      out.push_back(BoardMessage{id_, std::move(data_)});
      data_.clear();
      in_message_ = false;
    }
  }
  flush_skipped(errors);
}

void DgtMessageReader::reset() {
  in_message_ = false;
  data_.clear();
  skipped_ = 0;
}

void DgtMessageReader::begin(std::uint8_t id) {
  in_message_ = true;
  id_ = id;
  header_ = 1;
  length_ = 0;
  data_.clear();
}

void DgtMessageReader::flush_skipped(std::vector<std::string>& errors) {
  if (skipped_ == 0) return;
  errors.push_back("skipped " + std::to_string(skipped_) + " byte(s) outside a message");
  skipped_ = 0;
}

bool read_dump(const BoardMessage& m, Fields& out, std::vector<OddPiece>& odd) {
  if (m.id != kMsgBoardDump || m.data.size() != 64) return false;
  for (const std::uint8_t code : m.data)
    if (code > kLastCode) return false;
  odd.clear();
  for (std::uint8_t f = 0; f < 64; ++f) {
    const std::uint8_t code = m.data[f];
    if (code > kLastPieceCode) odd.push_back({f, code});
    out[f] = code > kLastPieceCode ? 0 : code;
  }
  return true;
}

bool read_field_update(const BoardMessage& m, std::uint8_t& field, std::uint8_t& code,
                       std::uint8_t& odd_code) {
  if (m.id != kMsgFieldUpdate || m.data.size() != 2 || m.data[0] > 63 || m.data[1] > kLastCode)
    return false;
  field = m.data[0];
  odd_code = m.data[1] > kLastPieceCode ? m.data[1] : 0;
  code = odd_code ? 0 : m.data[1];
  return true;
}

}  // namespace tactile::dgt
