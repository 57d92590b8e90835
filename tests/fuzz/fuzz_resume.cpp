// Fuzzes resuming a game from an arbiter log: any text must either be refused with
// ParseError or rebuild a game that keeps three promises the daemon relies on:
//  - resuming only the verified prefix (good_bytes) gives the same game again;
//  - the chain goes on from last_hash: a line the daemon appends to that prefix (a stop
//    entry) is accepted, and the game read back is the same, now stopped;
//  - the rebuilt game's PGN reads back as the same moves from the same start.
// The input is tried as it is and, so that the fuzzer gets past the hash chain, with its
// lines chained anew.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"

using namespace tactile;

namespace {

std::vector<chess::Move> moves_of(const chess::PgnGame& g) {
  std::vector<chess::Move> moves;
  for (const chess::PgnMove& pm : g.moves) moves.push_back(pm.move);
  return moves;
}

void resume(std::string_view text) {
  std::optional<game::ResumedGame> resumed;
  try {
    resumed.emplace(game::resume_from_log(text));
  } catch (const chess::ParseError&) {
    return;
  }
  const game::ResumedGame& r = *resumed;
  const std::vector<chess::Move> moves = moves_of(r.session.record());

  const std::string_view prefix = text.substr(0, r.good_bytes);
  const game::ResumedGame again = game::resume_from_log(prefix);
  if (moves_of(again.session.record()) != moves || again.good_lines != r.good_lines ||
      again.last_hash != r.last_hash || again.over != r.over || !again.torn_line.empty())
    std::abort();

  record::ArbiterLog log(r.good_lines, r.last_hash);
  nlohmann::ordered_json stop;
  stop["t"] = r.last_ms;
  stop["type"] = "stop";
  stop["signal"] = "SIGTERM";
  const game::ResumedGame stopped =
      game::resume_from_log(std::string(prefix) + log.line(stop) + "\n");
  if (!stopped.stopped || stopped.good_lines != r.good_lines + 1 ||
      moves_of(stopped.session.record()) != moves)
    std::abort();

  const std::vector<chess::PgnGame> read = chess::read_pgn(chess::write_pgn(r.session.record()));
  if (read.size() != 1 || moves_of(read[0]) != moves ||
      read[0].start.fen() != r.session.record().start.fen())
    std::abort();
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
