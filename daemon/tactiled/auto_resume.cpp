// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/auto_resume.h"

#include <cctype>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/chess/error.h"
#include "daemon/tactiled/config.h"

namespace fs = std::filesystem;

namespace tactile::daemon {
namespace {

// game-YYYYMMDD-HHMMSS.jsonl, as live mode names its logs: a stricter match than the
// prefix alone, so that no hand-named file ("game-old.jsonl") sorts above the newest.
bool is_game_log_name(const std::string& name) {
  const std::string pattern = "game-dddddddd-dddddd.jsonl";
  if (name.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (pattern[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(name[i]))
                          : name[i] != pattern[i])
      return false;
  }
  return true;
}

}  // namespace

std::string auto_resume_candidate(const std::string& state_dir, const std::string& log_setting) {
  if (!log_setting.empty()) {
    std::error_code ec;
    return fs::exists(log_setting, ec) ? log_setting : std::string();
  }
  std::string newest;
  std::error_code ec;
  // A state directory that is not there (yet) holds no game.
  for (fs::directory_iterator it(state_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (is_game_log_name(name) && it->is_regular_file(type_ec) && name > newest) newest = name;
  }
  return newest.empty() ? std::string() : state_dir + "/" + newest;
}

AutoResume classify_log(const std::string& path) {
  AutoResume a;
  a.log = path;
  std::string text;
  try {
    text = read_text_file(path, "log");
    if (game::log_holds_no_entry(text)) {
      a.reason = "it holds no whole entry (no game was logged)";
      return a;
    }
    game::ResumedGame r = game::resume_from_log(text);
    if (r.over) {
      a.reason = "the game has ended (" + r.session.record().result + ")";
    } else if (r.stopped) {
      a.reason = "the game was stopped";
    } else {
      a.action = AutoResume::Action::Resume;
      a.game.emplace(std::move(r));
    }
  } catch (const chess::ParseError& e) {
    a.action = AutoResume::Action::Refuse;
    a.reason = e.what();
  }
  return a;
}

AutoResume choose_auto_resume(const std::string& state_dir, const std::string& log_setting) {
  const std::string candidate = auto_resume_candidate(state_dir, log_setting);
  if (candidate.empty()) {
    AutoResume none;
    none.reason = "no log to resume";
    return none;
  }
  return classify_log(candidate);
}

}  // namespace tactile::daemon
