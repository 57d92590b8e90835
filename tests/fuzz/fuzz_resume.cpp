// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes resuming a game from an arbiter log: any text must either be refused with
// ParseError or rebuild a game that keeps three promises the daemon relies on:
//  - resuming only the verified prefix (good_bytes) gives the same game again;
//  - the chain goes on from last_hash: a line the daemon appends to that prefix (a stop
//    entry) is accepted, and the game read back is the same, now stopped;
//  - the rebuilt game's PGN reads back as the same moves from the same start;
//  - every value taken from the log is one the config would take: the game time within
//    0..kMaxGameMs, the settle time within 0..kMaxSettleMs, a start position where the
//    game is not over (and the sanitizers see no overflow on the way).
// The input is tried as it is, with its lines chained anew (so that the fuzzer gets past
// the hash chain), and chained anew with crafted values put in: extreme times in one
// line, an extreme settle time in the start entry, chosen by the input's bytes.
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
#include "core/game/setup_rules.h"
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
  if (r.last_ms < 0 || r.last_ms > game::kMaxGameMs || r.config.recognizer.settle_ms < 0 ||
      r.config.recognizer.settle_ms > game::kMaxSettleMs ||
      !game::start_position_fault(r.config.start).empty())
    std::abort();

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

// Values at and past every bound a log's numbers meet, and the ones that overflow.
const nlohmann::ordered_json kExtremes[] = {
    INT64_MIN,
    INT64_MAX,
    INT64_MAX - 1000,
    UINT64_MAX,
    std::uint64_t(1) << 63,
    -1,
    0,
    game::kMaxGameMs,
    game::kMaxGameMs + 1,
    game::kMaxSettleMs,
    game::kMaxSettleMs + 1,
    std::int64_t(1) << 53,
    1.5,
    1e300,
    "1000",
    nullptr,
};
constexpr std::size_t kExtremeCount = sizeof kExtremes / sizeof kExtremes[0];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;  // a few hundred lines are plenty
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  resume(text);
  std::vector<nlohmann::ordered_json> entries;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    auto j = nlohmann::ordered_json::parse(text.substr(pos, end - pos), nullptr, false);
    if (!j.is_discarded() && j.is_object()) entries.push_back(std::move(j));
    pos = end + 1;
  }
  const auto chain_anew = [](const std::vector<nlohmann::ordered_json>& lines) {
    record::ArbiterLog chain;
    std::string chained;
    for (const nlohmann::ordered_json& j : lines) chained += chain.line(j) + "\n";
    return chained;
  };
  resume(chain_anew(entries));
  if (entries.empty() || size < 3) return 0;
  // One line's time and the start's settle time replaced, as a forger with the chain would.
  const std::size_t at = data[0] % entries.size();
  entries[at]["t"] = kExtremes[data[size - 1] % kExtremeCount];
  if (data[0] & 0x80) entries[0]["settle_ms"] = kExtremes[data[size / 2] % kExtremeCount];
  resume(chain_anew(entries));
  return 0;
}
