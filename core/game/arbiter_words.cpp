// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/arbiter_words.h"

#include <charconv>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/clock/chess_clock.h"

namespace tactile::game {
namespace {

[[noreturn]] void fail(const std::string& why) {
  throw chess::ParseError(why);
}

int whole_number(std::string_view word) {
  int n = -1;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
  if (ec != std::errc() || end != word.data() + word.size() || n < 0)
    fail(chess::shown(word) + " is not a whole number (0 or more)");
  return n;
}

}  // namespace

ArbiterCommand arbiter_command_from_words(std::string_view text) {
  const std::vector<std::string_view> words = chess::split_words(text);
  if (words.empty()) fail("no arbiter command");
  const std::string name(words[0]);
  if (!parse_arbiter_command_name(name))
    fail("unknown arbiter command " + chess::shown(words[0]) +
         " (start, pause, resume, set-time, takeback, rollback, result, adjourn, "
         "resume-adjourned)");
  const std::vector<std::string_view> args(words.begin() + 1, words.end());
  nlohmann::json j{{"command", name}};
  if (name == "rollback") {
    if (args.size() != 1) fail("rollback needs one move number N");
    j["number"] = whole_number(args[0]);
  } else if (name == "set-time") {
    if (args.size() != 2 && args.size() != 3)
      fail("set-time needs WHITE and BLACK times (H:MM:SS or M:SS) and maybe MOVES");
    const char* side[2] = {"white_ms", "black_ms"};
    for (std::size_t i = 0; i < 2; ++i) {
      const std::int64_t ms = clock::parse_clock_time(args[i]);
      if (ms < 0) fail(chess::shown(args[i]) + " is not H:MM:SS or M:SS");
      j[side[i]] = ms;
    }
    if (args.size() == 3) j["moves"] = whole_number(args[2]);
  } else if (name == "result") {
    if (args.size() != 1 && args.size() != 2) fail("result needs 1-0, 0-1 or 1/2-1/2");
    j["result"] = std::string(args[0]);
    if (args.size() == 2) j["reason"] = std::string(args[1]);
  } else if (!args.empty()) {
    fail(name + " takes no arguments");
  }
  try {
    return arbiter_command_from_json(j);
  } catch (const chess::ParseError& e) {
    fail(std::string("arbiter ") + name + ": " + e.what());
  }
}

}  // namespace tactile::game
