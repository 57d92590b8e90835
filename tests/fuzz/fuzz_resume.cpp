// Fuzzes resuming a game from an arbiter log: any text must either be refused with
// ParseError or rebuild a game whose every recorded move is legal. The input is tried
// as it is and, so that the fuzzer gets past the hash chain, with its lines chained anew.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/chess/error.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"

using namespace tactile;

namespace {
void resume(std::string_view text) {
  try {
    const game::ResumedGame r = game::resume_from_log(text);
    chess::Position pos = r.session.record().start;
    for (const chess::PgnMove& pm : r.session.record().moves) {
      if (!pos.is_legal(pm.move)) std::abort();
      pos.play(pm.move);
    }
  } catch (const chess::ParseError&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;  // a few hundred lines are plenty
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  resume(text);
  record::ArbiterLog chain;
  std::string chained;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const auto j = nlohmann::ordered_json::parse(text.substr(pos, end - pos), nullptr, false);
    if (!j.is_discarded() && j.is_object()) chained += chain.line(j) + "\n";
    pos = end + 1;
  }
  resume(chained);
  return 0;
}
