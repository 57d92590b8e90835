// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter log's record builder (pure: it makes lines, the daemon writes them).
// The log is JSON lines. Every line carries its sequence number and the SHA-256 of the
// previous line's exact text, so a changed, removed or inserted line breaks the chain
// at that point and verify_log() names it. The first line's "prev" is 64 zeros.
//   {"seq":0,"prev":"000...","t":0,"type":"start",...}
//   {"seq":1,"prev":"3f1a...","t":1500,"type":"hole","board":"A","square":"e2","change":"up"}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tactile::record {

// Lowercase hex SHA-256 of `text` (OpenSSL EVP).
std::string sha256_hex(std::string_view text);

inline const std::string kGenesisHash(64, '0');

class ArbiterLog {
 public:
  // A new log, or one continued after `seq` lines whose last line hashed to `last_hash`.
  ArbiterLog() = default;
  ArbiterLog(std::uint64_t next_seq, std::string last_hash)
      : seq_(next_seq), prev_(std::move(last_hash)) {}

  // The line for `entry` (an object; its own "seq"/"prev" are replaced), without the
  // newline; the chain moves on to it.
  std::string line(const nlohmann::ordered_json& entry);

  std::uint64_t next_seq() const { return seq_; }
  const std::string& last_hash() const { return prev_; }

 private:
  std::uint64_t seq_ = 0;
  std::string prev_ = kGenesisHash;
};

// Checks a whole log (lines separated by '\n'; a final newline is optional). Returns
// the number of lines. Throws chess::ParseError "line N: why" at the first broken line,
// saying what happened to it: changed (the next line does not carry its hash, or it is
// not JSON), records removed before it, records swapped or moved (the line that belongs
// there is named), a record inserted or copied. A chain cannot show that its last lines
// were changed or cut: the head hash, kept outside the file, does (docs/security.md).
std::size_t verify_log(std::string_view text);

}  // namespace tactile::record
