// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/arbiter_log.h"

#include <openssl/evp.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/chess/error.h"

namespace tactile::record {

std::string sha256_hex(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                    &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), text.data(), text.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1)
    throw std::runtime_error("SHA-256 (OpenSSL) failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

std::string ArbiterLog::line(const nlohmann::ordered_json& entry) {
  nlohmann::ordered_json j;
  j["seq"] = seq_;
  j["prev"] = prev_;
  if (entry.is_object()) {
    for (const auto& [key, value] : entry.items())
      if (key != "seq" && key != "prev") j[key] = value;
  }
  // Invalid UTF-8 is replaced rather than thrown: the log must never lose an entry.
  std::string text = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  prev_ = sha256_hex(text);
  ++seq_;
  return text;
}

namespace {

// The "seq" of a line, if it has a whole-number one.
std::optional<std::uint64_t> seq_of(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("seq") || !j["seq"].is_number_unsigned()) return std::nullopt;
  return j["seq"].get<std::uint64_t>();
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::size_t verify_log(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  std::string prev = kGenesisHash;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::uint64_t expected = i;
    const auto line_no = [](std::size_t index) { return "line " + std::to_string(index + 1); };
    const std::string where = line_no(i) + ": ";
    // An editor's or a copy's changes that keep the JSON but change the bytes the chain
    // covers: named as such, rather than as a hash mismatch on the next line.
    if (i == 0 && lines[i].starts_with("\xEF\xBB\xBF"))
      throw chess::ParseError(where +
                              "begins with a UTF-8 byte order mark: an editor saved the log, and "
                              "the chain covers the bytes tactiled wrote (remove the 3 bytes EF "
                              "BB BF to check it)");
    if (lines[i].ends_with('\r'))
      throw chess::ParseError(where +
                              "ends with a carriage return (CRLF line ends): the log was "
                              "converted; convert it back to LF line ends to check it");
    const auto j = nlohmann::json::parse(lines[i], nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw chess::ParseError(where + "not a JSON object (changed, or cut short)");
    const std::optional<std::uint64_t> seq = seq_of(j);
    if (!seq) throw chess::ParseError(where + "no sequence number (changed)");
    if (*seq > expected) {
      // The record that belongs here may come later: records swapped or moved.
      for (std::size_t m = i + 1; m < lines.size(); ++m) {
        if (seq_of(nlohmann::json::parse(lines[m], nullptr, false)) == expected)
          throw chess::ParseError(where + "out of order: seq " + std::to_string(*seq) +
                                  " here, seq " + std::to_string(expected) + " is " + line_no(m) +
                                  " (records swapped or moved)");
      }
      throw chess::ParseError(
          where + "seq " + std::to_string(*seq) + " where " + std::to_string(expected) +
          " was expected: " + plural(*seq - expected, "record", "records") + " removed before it");
    }
    if (*seq < expected)
      throw chess::ParseError(where + "seq " + std::to_string(*seq) + " again where " +
                              std::to_string(expected) +
                              " was expected: a record inserted or copied");
    if (!j.contains("prev") || !j["prev"].is_string() || j["prev"].get<std::string>() != prev) {
      if (i == 0)
        throw chess::ParseError(where + "changed: its prev is not the genesis hash (64 zeros)");
      throw chess::ParseError(line_no(i - 1) + ": changed: " + line_no(i) +
                              " does not carry the hash of the line before");
    }
    prev = sha256_hex(lines[i]);
  }
  return lines.size();
}

}  // namespace tactile::record
