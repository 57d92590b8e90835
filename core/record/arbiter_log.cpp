#include "core/record/arbiter_log.h"

#include <openssl/evp.h>

#include <array>
#include <memory>
#include <stdexcept>

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

std::size_t verify_log(std::string_view text) {
  std::string prev = kGenesisHash;
  std::uint64_t seq = 0;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string where = "line " + std::to_string(line_no) + ": ";
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw chess::ParseError(where + "not a JSON object");
    if (!j.contains("seq") || !j["seq"].is_number_unsigned() ||
        j["seq"].get<std::uint64_t>() != seq)
      throw chess::ParseError(where + "sequence number is not " + std::to_string(seq));
    if (!j.contains("prev") || !j["prev"].is_string() || j["prev"].get<std::string>() != prev)
      throw chess::ParseError(where +
                              "does not carry the hash of the line before (changed, "
                              "removed or inserted line)");
    prev = sha256_hex(line);
    ++seq;
  }
  return line_no;
}

}  // namespace tactile::record
