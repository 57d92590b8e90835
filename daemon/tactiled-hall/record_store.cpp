// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/record_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/game/log_entries.h"
#include "daemon/files/safe_file.h"
#include "daemon/mqtt/broker_access.h"

namespace tactile::hall {
namespace fs = std::filesystem;
namespace {

void make_dir(const std::string& path) {
  if (::mkdir(path.c_str(), 0750) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot make the record directory '" + path +
                             "': " + std::strerror(errno));
}

// "<n>-<game_id>.jsonl": n and the game id; false for any other name.
bool file_name(const std::string& name, int& n, std::string& game_id) {
  const std::size_t dash = name.find('-');
  if (dash == std::string::npos || dash == 0 || dash > 6 || !name.ends_with(".jsonl")) return false;
  n = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    n = n * 10 + (name[i] - '0');
  }
  game_id = name.substr(dash + 1, name.size() - dash - 1 - 6);
  return game_id.empty() || game::valid_game_id(game_id);
}

}  // namespace

RecordStore::RecordStore(std::string dir) : dir_(std::move(dir)) {
  make_dir(dir_);
}

std::vector<RecordStore::Kept> RecordStore::load() {
  std::vector<std::pair<int, Kept>> found;
  std::error_code ec;
  for (const fs::directory_entry& table_dir : fs::directory_iterator(dir_, ec)) {
    const std::string table = table_dir.path().filename().string();
    if (!table_dir.is_directory() || table_dir.is_symlink() || !mqtt::valid_name(table)) continue;
    std::vector<std::pair<int, Kept>> games;
    for (const fs::directory_entry& f : fs::directory_iterator(table_dir.path(), ec)) {
      int n = 0;
      std::string game_id;
      if (!f.is_regular_file() || f.is_symlink() ||
          !file_name(f.path().filename().string(), n, game_id))
        continue;
      std::ifstream in(f.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      const std::string all = text.str();
      Kept k{table, game_id, {}};
      std::size_t at = 0;
      for (std::size_t nl; (nl = all.find('\n', at)) != std::string::npos; at = nl + 1)
        k.lines.push_back(all.substr(at, nl - at));
      files_[{table, game_id}] = f.path().string();
      next_index_[table] = std::max(next_index_[table], n + 1);
      if (at != all.size()) ::truncate(f.path().c_str(), off_t(at));  // a torn last line
      games.emplace_back(n, std::move(k));
    }
    std::sort(games.begin(), games.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& g : games) found.push_back(std::move(g));
  }
  std::vector<Kept> out;
  for (auto& [n, k] : found) out.push_back(std::move(k));
  return out;
}

void RecordStore::keep(const std::string& table, const std::string& game_id, std::size_t lines) {
  const auto it = files_.find({table, game_id});
  if (it == files_.end()) return;
  std::ifstream in(it->second, std::ios::binary);
  std::string text, line;
  std::size_t total = 0;
  while (std::getline(in, line))
    if (total++ < lines) text += line + "\n";
  if (total > lines) daemon::replace_file(it->second, text, "record file");
}

std::string RecordStore::path(const Key& key) {
  const auto it = files_.find(key);
  if (it != files_.end()) return it->second;
  make_dir(dir_ + "/" + key.first);
  const int n = next_index_[key.first]++;
  char index[16];
  std::snprintf(index, sizeof index, "%04d", n);
  return files_[key] = dir_ + "/" + key.first + "/" + index + "-" + key.second + ".jsonl";
}

void RecordStore::write(const Key& key, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  const std::string file = path(key);
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
                        daemon::kRecordFileMode);
  if (fd < 0)
    throw std::runtime_error("cannot open the record file '" + file + "': " + std::strerror(errno));
  struct stat st {};
  const bool statted = ::fstat(fd, &st) == 0;
  if (!statted || !daemon::write_all(fd, text) || ::fdatasync(fd) != 0) {
    const std::string why = std::strerror(errno);
    if (statted && ::ftruncate(fd, st.st_size) == 0) ::fdatasync(fd);  // all or nothing
    ::close(fd);
    throw std::runtime_error("cannot write the record file '" + file + "': " + why);
  }
  ::close(fd);
}

void RecordStore::append(const std::vector<VerifiedRecords>& records) {
  for (const VerifiedRecords& r : records) {
    std::vector<std::string>& lines = backlog_[{r.table, r.game_id}];
    lines.insert(lines.end(), r.lines.begin(), r.lines.end());
  }
  std::string failure;
  for (auto it = backlog_.begin(); it != backlog_.end();) {
    try {
      write(it->first, it->second);
      it = backlog_.erase(it);
    } catch (const std::exception& e) {
      if (failure.empty()) failure = e.what();
      ++it;
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace tactile::hall
