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
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/game/log_entries.h"
#include "core/record/arbiter_log.h"
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

bool is_seal(const std::string& line) {
  return line.starts_with(R"({"seal":")");
}

}  // namespace

std::string record_file_header(const std::string& table, const std::string& game_id) {
  return nlohmann::json{{"table", table}, {"game_id", game_id}}.dump();
}

std::string record_file_seal(const std::string& record) {
  return R"({"seal":")" + record::sha256_hex(record) + R"("})";
}

RecordStore::RecordStore(std::string dir) : dir_(std::move(dir)) {
  make_dir(dir_);
}

std::vector<RecordStore::KeptFile> RecordStore::list(std::vector<std::string>* refused) {
  std::vector<std::pair<std::string, std::vector<std::pair<int, KeptFile>>>> tables;
  std::error_code ec;
  for (const fs::directory_entry& table_dir : fs::directory_iterator(dir_, ec)) {
    const std::string table = table_dir.path().filename().string();
    if (!table_dir.is_directory() || table_dir.is_symlink() || !mqtt::valid_name(table)) continue;
    std::vector<std::pair<int, KeptFile>> games;
    for (const fs::directory_entry& f : fs::directory_iterator(table_dir.path(), ec)) {
      int n = 0;
      std::string game_id;
      if (!f.is_regular_file() || f.is_symlink() ||
          !file_name(f.path().filename().string(), n, game_id))
        continue;
      // Never a file of this name again, adopted or not.
      next_index_[table] = std::max(next_index_[table], n + 1);
      Reader reader(f.path().string());
      std::string header;
      if (!reader.next(header) || header != record_file_header(table, game_id)) {
        if (refused)
          refused->push_back("the record file '" + f.path().string() + "' is not table " + table +
                             "'s game '" + game_id +
                             "' (its first line names another, or none): not adopted");
        continue;
      }
      files_[{table, game_id}] = f.path().string();
      games.emplace_back(n, KeptFile{table, game_id, f.path().string()});
    }
    std::sort(games.begin(), games.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    tables.emplace_back(table, std::move(games));
  }
  // Tables by name: the same order at every start.
  std::sort(tables.begin(), tables.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<KeptFile> out;
  for (auto& [table, games] : tables)
    for (auto& g : games) out.push_back(std::move(g.second));
  return out;
}

RecordStore::Reader::Reader(const std::string& path) : file_(std::fopen(path.c_str(), "rbe")) {}

RecordStore::Reader::~Reader() {
  if (file_) std::fclose(file_);
}

bool RecordStore::Reader::raw(std::string& line) {
  line.clear();
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, file_)) {
    const std::size_t n = std::strlen(buffer);
    if (n > 0 && buffer[n - 1] == '\n') {
      line.append(buffer, n - 1);
      at_ += off_t(line.size() + 1);
      return true;
    }
    line.append(buffer, n);
    // No record is longer than a message may be: a longer line is no record of the hall's.
    if (line.size() > HallLimits::kMaxPayload + 1024) break;
  }
  line.clear();  // the end, or a torn last line: not a record
  return false;
}

bool RecordStore::Reader::next(std::string& line) {
  line.clear();
  if (!file_ || ended_) return false;
  // Whatever ends the file ends it for good: nothing after a bad line is read.
  auto end = [&] {
    ended_ = true;
    line.clear();
    return false;
  };
  if (ends_.empty()) {  // the header
    if (!raw(line)) return end();
    ends_.push_back(at_);
    sealed_.push_back(true);
    return true;
  }
  if (!have_ahead_) {
    if (!raw(ahead_)) return end();
    ahead_end_ = at_;
  }
  have_ahead_ = false;
  if (is_seal(ahead_)) return end();  // a seal with no record before it
  line = std::move(ahead_);
  const off_t record_end = ahead_end_;
  if (!raw(ahead_)) return end();  // nothing vouches for the last record
  if (is_seal(ahead_)) {
    if (ahead_ != record_file_seal(line)) return end();  // the record or its seal was changed
    ends_.push_back(at_);
    sealed_.push_back(true);
  } else {
    ends_.push_back(record_end);
    sealed_.push_back(false);
    ahead_end_ = at_;
    have_ahead_ = true;
  }
  return true;
}

off_t RecordStore::Reader::end_of(std::size_t records) const {
  if (ends_.empty()) return 0;
  return ends_[std::min(records, ends_.size() - 1)];
}

std::string RecordStore::Reader::seal_after(std::size_t records) const {
  records = std::min(records, ends_.empty() ? 0 : ends_.size() - 1);
  if (records == 0 || sealed_[records]) return "";
  const off_t from = ends_[records - 1];
  std::string record(std::size_t(ends_[records] - from - 1), '\0');
  if (::pread(::fileno(file_), record.data(), record.size(), from) != ssize_t(record.size()))
    return "";
  return record_file_seal(record);
}

void RecordStore::cut(const KeptFile& file, const Reader& reader, std::size_t records) {
  const off_t at = reader.end_of(records);
  struct stat st {};
  if (::stat(file.path.c_str(), &st) != 0 || st.st_size <= at) return;
  if (at == 0) {
    // Not even its header stands: the file goes (a new one is made for the game).
    ::unlink(file.path.c_str());
    files_.erase({file.table, file.game_id});
    return;
  }
  auto failed = [&](const char* what) {
    return std::runtime_error("cannot " + std::string(what) + " the record file '" + file.path +
                              "': " + std::strerror(errno));
  };
  if (::truncate(file.path.c_str(), at) != 0) throw failed("cut");
  const std::string seal = reader.seal_after(records);
  if (seal.empty()) return;
  const int fd = ::open(file.path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw failed("seal");
  const bool sealed = daemon::write_all(fd, seal + "\n") && ::fdatasync(fd) == 0;
  ::close(fd);
  if (!sealed) throw failed("seal");
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
  if (!lines.empty()) text += record_file_seal(lines.back()) + "\n";
  const std::string file = path(key);
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
                        daemon::kRecordFileMode);
  if (fd < 0)
    throw std::runtime_error("cannot open the record file '" + file + "': " + std::strerror(errno));
  struct stat st {};
  const bool statted = ::fstat(fd, &st) == 0;
  // A new file begins with the line that names its table and game.
  if (statted && st.st_size == 0) text = record_file_header(key.first, key.second) + "\n" + text;
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
