// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/game_file_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "daemon/files/safe_file.h"

namespace tactile::hall {

void GameFileWriter::write(const HallState& state, const HallViews& views, Time now, bool all) {
  const bool busy = !all && pending_.size() > kQuietTables;
  std::string failure;
  for (auto it = pending_.begin(); it != pending_.end();) {
    const Table* t = state.table(*it);
    if (!t) {
      it = pending_.erase(it);
      continue;
    }
    if (!all && retry_at_.contains(*it) && now < retry_at_.at(*it)) {
      ++it;  // failed a moment ago (a full disk): not tried at every write
      continue;
    }
    const TableView& v = views.view(*t);
    const bool is_new =
        (!written_.contains(game_file_name(*t)) && !links_.contains(game_file_name(*t))) ||
        std::any_of(v.game_files.begin(), v.game_files.end(),
                    [&](const auto& f) { return !written_.contains(f.first); });
    if (busy && !is_new && !due(*it, now)) {
      ++it;
      continue;
    }
    try {
      if (!failure.empty()) throw std::runtime_error(failure);  // the disk: not tried now
      for (const auto& [file, pgn] : v.game_files) one(file, pgn);
      // The current game's own file under the table's name: a link to its game-id file
      // (one file written a change, not two), or the file itself for a game without id.
      const std::string id_file = game_file_name(*t, *t);
      if (id_file.empty())
        one(game_file_name(*t), v.pgn);
      else
        link(game_file_name(*t), id_file);
      last_written_[*it] = now;
      retry_at_.erase(*it);
      it = pending_.erase(it);
    } catch (const std::exception& e) {
      if (failure.empty()) failure = e.what();
      // Kept pending: tried again after a while, changes or not.
      retry_at_[*it] = now + std::max<std::chrono::milliseconds>(every_, kRetry);
      ++it;
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

bool GameFileWriter::due(Time now) const {
  return std::any_of(pending_.begin(), pending_.end(),
                     [&](const std::string& table) { return due(table, now); });
}

bool GameFileWriter::due(const std::string& table, Time now) const {
  if (const auto retry = retry_at_.find(table); retry != retry_at_.end())
    return now >= retry->second;
  const auto it = last_written_.find(table);
  return it == last_written_.end() || now - it->second >= every_;
}

// A game file whose text is the one last written (an earlier game of a table that changed)
// is not written again. Not synced: a game's file is made again from the records; live.pgn
// and round.json are.
void GameFileWriter::one(const std::string& file, const std::string& pgn) {
  const std::size_t h = std::hash<std::string>{}(pgn);
  const auto it = written_.find(file);
  if (it != written_.end() && it->second == h) return;
  written_.erase(file);  // unknown until it is written whole
  links_.erase(file);    // a link replaced by the file itself
  daemon::replace_file(dir_ + "/" + file, pgn, "game PGN", false);
  written_[file] = h;
}

// `name` a symbolic link to `target` (a file of the same directory), replaced whole.
void GameFileWriter::link(const std::string& name, const std::string& target) {
  const auto it = links_.find(name);
  if (it != links_.end() && it->second == target) return;
  links_.erase(name);
  written_.erase(name);
  const std::string temp = dir_ + "/." + name + ".link";
  ::unlink(temp.c_str());
  if (::symlink(target.c_str(), temp.c_str()) != 0 ||
      ::rename(temp.c_str(), (dir_ + "/" + name).c_str()) != 0)
    throw std::runtime_error("cannot link " + dir_ + "/" + name + " to " + target + ": " +
                             std::strerror(errno));
  links_[name] = target;
}

}  // namespace tactile::hall
