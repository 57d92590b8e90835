// SPDX-License-Identifier: GPL-3.0-or-later
// board = script: the event-script format read as it arrives from a file or a FIFO
// (docs/daemon.md). Each event is handed on at its ms of game time, or at once, stamped
// with the time it came, if that time has passed; the daemon's loop, log and socket run as with a
// real board. With its entry in the table of board transports.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "core/chess/error.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/script_link.h"
#include "drivers/script/script.h"

namespace tactile::daemon {
namespace {

constexpr std::int64_t kFilePollMs = 100;  // a regular file at its end: look again so often
constexpr std::size_t kMaxLine = 4096;

class ScriptLink : public BoardLink {
 public:
  ScriptLink(const std::string& path, int board) : path_(path), board_(board) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      throw std::runtime_error("cannot open script '" + path + "': " + std::strerror(errno));
    fifo_ = S_ISFIFO(st.st_mode);
    // A FIFO opened for reading and writing never reads as ended when a writer closes it:
    // a test (or a person) may write to it again later.
    fd_ = ::open(path.c_str(), (fifo_ ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0)
      throw std::runtime_error("cannot open script '" + path + "': " + std::strerror(errno));
  }
  ~ScriptLink() override { ::close(fd_); }

  int fd() const override { return at_end_ ? -1 : fd_; }

  // A FIFO goes on with what its writer writes next; a file, opened again, would begin
  // again from its first line.
  std::string why_not_lendable() const override {
    return fifo_ ? ""
                 : "its script '" + path_ + "' is a file, which would be read again from its start";
  }

  std::int64_t timeout_ms(std::int64_t now) const override {
    std::int64_t wait = at_end_ ? kFilePollMs : -1;
    if (!queue_.empty()) {
      const std::int64_t due = std::max<std::int64_t>(0, queue_.front().ms - now);
      wait = wait < 0 ? due : std::min(wait, due);
    }
    return wait;
  }

  void step(std::int64_t now, Sink& sink) override {
    read_more(now, sink);
    while (!queue_.empty() && queue_.front().ms <= now) {
      script::ScriptEvent e = queue_.front();
      queue_.pop_front();
      if (e.board != board_) continue;  // the other board's lines are not this link's
      if (e.kind == script::ScriptEvent::Kind::Hole)
        sink.hole(e.hole, false);
      else
        sink.button(e.button);
    }
  }

  void clock_switched(std::int64_t) override {}
  void alarm(std::int64_t) override {}
  void light(chess::Bitboard, std::int64_t) override {}

 private:
  void read_more(std::int64_t now, Sink& sink) {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n > 0) {
        at_end_ = false;
        text_.append(buf, std::size_t(n));
        continue;
      }
      if (n == 0)
        at_end_ = !fifo_;  // a file: wait for more to be appended
      else if (errno == EINTR)
        continue;
      break;
    }
    for (std::size_t nl; (nl = text_.find('\n')) != std::string::npos;) {
      take_line(text_.substr(0, nl), now, sink);
      text_.erase(0, nl + 1);
    }
    if (text_.size() > kMaxLine) {
      warn(now, "line " + std::to_string(line_ + 1) + ": longer than 4096 characters: dropped",
           sink);
      text_.clear();
    }
  }

  void take_line(const std::string& line, std::int64_t now, Sink& sink) {
    ++line_;
    try {
      for (script::ScriptEvent e : script::parse_script(line)) {
        if (e.kind == script::ScriptEvent::Kind::Arbiter)
          throw chess::ParseError(
              "an arbiter's command is for --replay; a live game takes it from tactilectl");
        if (e.kind == script::ScriptEvent::Kind::OutsideMove)
          throw chess::ParseError(
              "a move from outside the boards is for --replay; a board's script holds its "
              "own events only");
        e.line = line_;
        if (e.ms < last_ms_) throw chess::ParseError("time goes back");
        last_ms_ = e.ms;
        // A stamp already passed is applied at once, so it is stamped when it came: the
        // log, the clock and the recognizer see the time it acted at.
        e.hole.ms = e.button.ms = e.ms = std::max({e.ms, now, std::int64_t(0)});
        queue_.push_back(e);
      }
    } catch (const chess::ParseError& e) {
      // A bad line is reported (and logged); the game goes on without it.
      warn(now, "script " + path_ + ": line " + std::to_string(line_) + ": " + e.what(), sink);
    }
  }

  void warn(std::int64_t now, std::string message, Sink& sink) {
    board::BoardStatus s;
    s.ms = now;
    s.status = board::LinkStatus::Warning;
    s.message = std::move(message);
    sink.status(s);
  }

  std::string path_;
  int board_ = 0;  // the board whose lines this link takes: 0 = A, 1 = B
  int fd_ = -1;
  bool fifo_ = false;
  bool at_end_ = false;
  std::string text_;
  int line_ = 0;
  std::int64_t last_ms_ = 0;
  std::deque<script::ScriptEvent> queue_;
};

constexpr TransportKey kScriptKeys[] = {
    {"script", "board = script: the event script (a file or a FIFO)",
     "board-b = script: board B's event script (a file or a FIFO)", "PATH (a file or a FIFO)", "",
     true},
};

void read_script(const BoardSettings& settings, BoardSetup& c) {
  script_setup(c).path = settings.find("script")->value;
}

std::string script_source(const BoardSetup& c) {
  return "script" + absolute_source_path(script_setup(c).path);
}

std::unique_ptr<BoardLink> open_script(const BoardSetup& c, const LinkRequest& r) {
  return make_script_link(script_setup(c).path, r.board);
}

void identify_script(const BoardSetup& c, const std::string&, nlohmann::json& identity) {
  identity["script"] = script_setup(c).path;
}

constexpr std::string_view kScriptManual =
    "        script = PATH                   board = script: event script (file or FIFO),\n"
    "                                        each event applied at its ms of game time\n";

}  // namespace

extern const BoardTransport kScriptTransport{
    .name = "script",
    .keys = kScriptKeys,
    .read = read_script,
    .source = script_source,
    .open = open_script,
    .identify = identify_script,
    .manual = kScriptManual,
};

std::unique_ptr<BoardLink> make_script_link(const std::string& path, int board) {
  return std::make_unique<ScriptLink>(path, board);
}

}  // namespace tactile::daemon
