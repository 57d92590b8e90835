// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/control_commands.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "core/chess/input_text.h"
#include "core/chess/text_check.h"
#include "core/clock/chess_clock.h"
#include "core/game/player_key.h"
#include "core/game/seatings.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/status_text.h"

namespace po = boost::program_options;
using nlohmann::json;

namespace tactile::ctl {
namespace {

struct ControlCommand {
  std::string_view name;
  std::string_view synopsis;     // after "tactilectl NAME"
  std::string_view description;  // what it does, for --help
  bool reads = false;            // a read command: --json applies
};

constexpr std::array<ControlCommand, 14> kCommands = {{
    {"status", "[--json]",
     "Shows the game: position (FEN), moves, whose move, both clocks and move counts,\n"
     "    whether the clock runs, is paused or the game adjourned, the move in progress,\n"
     "    holes to put back, result, players, log and PGN. With --json the daemon's answer\n"
     "    as one JSON object: at least fen, moves (plies made), turn, white_ms, black_ms,\n"
     "    running (white, black or none), paused, over, result.",
     true},
    {"time", "[--json]",
     "Both clocks and the number of moves, as the player hears them when he presses\n"
     "    the time button.",
     true},
    {"events", "[--json]",
     "Subscribes to the live event stream and prints every log record as it is\n"
     "    written, until interrupted. A subscriber that does not keep up is dropped.",
     true},
    {"start", "",
     "Starts the clock of the side to move (Art. 6.6). A live game's clocks stay stopped\n"
     "    until then, or until an announce press with the board in the start position.",
     false},
    {"pause", "", "Stops both clocks (Art. 6.11); said to the players.", false},
    {"resume", "", "Lets the paused clocks go on; said to the players.", false},
    {"set-time", "WHITE BLACK [--moves N]",
     "Sets both players' remaining time (Art. 6.10.2, 1985 rules 12.4), each as H:MM:SS\n"
     "    or M:SS. --moves N sets the moves each player has completed (with Black on\n"
     "    move, Black's count is N-1).",
     false},
    {"rollback", "N",
     "Returns the game to the position after move N (Black's move N; 0 for the start\n"
     "    position): record and position go back, the holes to put back are lit and said,\n"
     "    and each player's time used is split by 1985 rules 12.6 (used x moves kept /\n"
     "    moves played). Nothing is read from the board until it shows that position.",
     false},
    {"takeback", "",
     "Takes the last move back (rapid/blitz 1.16.3: an illegal move found after the\n"
     "    clock was pressed): the offender's clock runs again with all the time since his\n"
     "    turn began, his increment is removed, and the opponent gets back his time.",
     false},
    {"result", "1-0|0-1|1/2-1/2 [--reason TEXT]",
     "Ends the game with this result (a resignation or a draw agreement, or the\n"
     "    arbiter's decision); recorded in the log and the PGN (--reason as the\n"
     "    Termination tag) and said to the players.",
     false},
    {"adjourn", "",
     "Adjourns the game (1985 rules 13): the player on move makes his sealed move on\n"
     "    the board; it is recorded but not announced, the clocks stop, and the envelope\n"
     "    (players, position, times, sealer, move number) is written to the log and to\n"
     "    LOG.envelope.json beside it.",
     false},
    {"resume-adjourned", "",
     "Resumes the adjourned game (1985 rules 14): the position before the sealed move\n"
     "    is set up; when the sealed move is made on the board it is announced and the\n"
     "    opponent's clock starts.",
     false},
    {"new-game",
     "[--white NAME] [--black NAME] [--event E] [--site S] [--round R]\n"
     "        [--time-control TC] [--chess960 N | --fen FEN] [--player white|black]",
     "Closes the current game (ended or abandoned) in its log and begins a new game,\n"
     "    with a new log and PGN whose Seven Tag Roster carries these values (Event and\n"
     "    Site default to the config's). The clocks wait for start.",
     false},
    {"ping", "", "Checks that the daemon answers.", true},
}};

const ControlCommand* find(std::string_view name) {
  for (const ControlCommand& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

std::string default_socket() {
  const char* env = std::getenv("TACTILED_CONTROL");
  return env && *env ? env : "/run/tactiled/control";
}

// Connects to the daemon; throws std::runtime_error naming the path and why.
int connect_to(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path)
    throw std::runtime_error("socket path too long: " + path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const int e = errno;
    ::close(fd);
    std::string why = "cannot reach tactiled at " + path + ": " + std::strerror(e);
    if (e == EACCES || e == EPERM) why += " (only root and the group tactiled may connect)";
    if (e == ENOENT || e == ECONNREFUSED) why += " (is tactiled running? --socket PATH)";
    throw std::runtime_error(why);
  }
  timeval tv{10, 0};  // a daemon that does not answer at all is not waited for forever
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

bool send_line(int fd, const std::string& line) {
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

// Reads one line; false at the end of the stream or on a timeout.
bool read_line(int fd, std::string& buffer, std::string& line) {
  for (;;) {
    const std::size_t nl = buffer.find('\n');
    if (nl != std::string::npos) {
      line = buffer.substr(0, nl);
      buffer.erase(0, nl + 1);
      return true;
    }
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer.append(buf, std::size_t(n));
  }
}

json build_request(const ControlCommand& c, const po::variables_map& vm) {
  json r;
  r["command"] = std::string(c.name);
  if (c.name == "set-time") {
    const auto& times = vm["args"].as<std::vector<std::string>>();
    if (times.size() != 2) throw UsageError{"set-time needs WHITE and BLACK times"};
    const char* side[2] = {"white_ms", "black_ms"};
    for (int i = 0; i < 2; ++i) {
      const long long ms = clock::parse_clock_time(times[std::size_t(i)]);
      if (ms < 0) throw UsageError{"'" + times[std::size_t(i)] + "' is not H:MM:SS or M:SS"};
      r[side[i]] = ms;
    }
    if (vm.count("moves")) r["moves"] = vm["moves"].as<int>();
  } else if (c.name == "rollback") {
    const auto& a = vm["args"].as<std::vector<std::string>>();
    int n = -1;
    if (a.size() == 1) std::from_chars(a[0].data(), a[0].data() + a[0].size(), n);
    if (a.size() != 1 || n < 0 || std::to_string(n) != a[0])
      throw UsageError{"rollback needs one move number N (0 or more)"};
    r["number"] = n;
  } else if (c.name == "result") {
    const auto& a = vm["args"].as<std::vector<std::string>>();
    if (a.size() != 1 || (a[0] != "1-0" && a[0] != "0-1" && a[0] != "1/2-1/2"))
      throw UsageError{"result needs 1-0, 0-1 or 1/2-1/2"};
    r["result"] = a[0];
    if (vm.count("reason")) r["reason"] = vm["reason"].as<std::string>();
  } else if (c.name == "new-game") {
    for (const char* key : {"white", "black", "event", "site", "round", "time-control", "fen"}) {
      if (!vm.count(key)) continue;
      const std::string v = vm[key].as<std::string>();
      // What reaches a terminal, the log and the PGN: one line of text, no escape sequence.
      if (!chess::valid_utf8(v) || chess::has_control_character(v))
        throw UsageError{"--" + std::string(key) + " " + chess::shown(v) +
                         ": not UTF-8 text, or holds a control character (ESC, NUL, a newline...)"};
      r[key] = v;
    }
    if (vm.count("chess960")) {
      const int n = vm["chess960"].as<int>();
      if (n < 0 || n > 959)
        throw UsageError{"--chess960 " + std::to_string(n) + ": not a number from 0 to 959"};
      r["chess960"] = n;
    }
    if (vm.count("fen") && vm.count("chess960"))
      throw UsageError{"--chess960 and --fen exclude each other"};
    if (vm.count(game::kPlayerKey)) {
      const std::string p = vm[game::kPlayerKey].as<std::string>();
      if (const std::string fault = game::colour_fault(p); !fault.empty())
        throw UsageError{"--player: " + fault};
      r[game::kPlayerKey] = p;
    }
  } else if (!vm["args"].as<std::vector<std::string>>().empty()) {
    throw UsageError{std::string(c.name) + " takes no arguments"};
  }
  return r;
}

}  // namespace

bool is_control_command(std::string_view name) {
  return find(name) != nullptr;
}

std::string control_help(std::string_view name) {
  const ControlCommand& c = *find(name);
  // Appended piece by piece: GCC 12 at -O3 takes "literal" + std::string&& in a
  // conditional for an overlapping memcpy (-Werror=restrict), failing the Release build.
  std::string h = "NAME\n    tactilectl ";
  h.append(c.name)
      .append("\n\nSYNOPSIS\n    tactilectl ")
      .append(c.name)
      .append(" [--socket PATH]");
  if (!c.synopsis.empty()) h.append(" ").append(c.synopsis);
  h.append("\n\nDESCRIPTION\n    ").append(c.description);
  h += "\n\n    The command goes to the running tactiled over its control socket; only\n"
       "    root and members of the group tactiled may use it. Every command that\n"
       "    changes the game is written to the arbiter log, with the user's id,\n"
       "    before it takes effect.\n\nOPTIONS\n"
       "    --socket PATH   the control socket (default $TACTILED_CONTROL, else\n"
       "                    /run/tactiled/control)\n";
  if (c.reads) h += "    --json          print the daemon's answer as one JSON object\n";
  if (c.name == "set-time") h += "    --moves N       the moves each player has completed\n";
  if (c.name == "result") h += "    --reason TEXT   why (resignation, agreement, ...)\n";
  if (c.name == "new-game")
    h += "    --white NAME, --black NAME, --event E, --site S, --round R\n"
         "                    the PGN's Seven Tag Roster\n"
         "    --time-control TC   e.g. 40/5400+30:1800+30 (default: the config's)\n"
         "    --chess960 N    Chess960 start position N (0..959)\n"
         "    --fen FEN       start position\n"
         "    --player white|black\n"
         "                    the blind player's colour, in a seating that has one\n"
         "                    (" +
         game::seatings_with_key(game::kPlayerKey) + "; default: the config's)\n";
  h += "    -h, --help      show this text\n\nEXIT STATUS\n"
       "    0   done (read commands: the answer was printed)\n"
       "    1   the daemon refused the command; the message says why (nothing changed)\n"
       "    2   bad arguments\n"
       "    3   the daemon could not be reached (not running, no permission, no answer)\n";
  return h;
}

std::string control_socket_path(const std::string& given) {
  return given.empty() ? default_socket() : given;
}

std::optional<DaemonConnection> DaemonConnection::open(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path)
    throw std::runtime_error("socket path too long: " + path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  {
    const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    const int r = ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    const int e = errno;
    ::close(probe);
    if (r != 0 && (e == ENOENT || e == ECONNREFUSED)) return std::nullopt;  // nobody there
  }
  return DaemonConnection(connect_to(path), path);
}

DaemonConnection::DaemonConnection(DaemonConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      buffer_(std::move(other.buffer_)) {}

DaemonConnection& DaemonConnection::operator=(DaemonConnection&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

DaemonConnection::~DaemonConnection() {
  if (fd_ >= 0) ::close(fd_);
}

json DaemonConnection::ask(const json& request) {
  std::string line;
  if (!send_line(fd_, request.dump() + "\n") || !read_line(fd_, buffer_, line))
    throw std::runtime_error("no answer from tactiled at " + path_);
  json answer = json::parse(line, nullptr, false);
  if (answer.is_discarded() || !answer.is_object())
    throw std::runtime_error("tactiled at " + path_ + " answered something that is not JSON");
  return answer;
}

std::optional<json> ask_daemon(const std::string& path, const json& request) {
  std::optional<DaemonConnection> connection = DaemonConnection::open(path);
  if (!connection) return std::nullopt;
  return connection->ask(request);
}

int run_control(const std::string& name, const std::vector<std::string>& args, std::ostream& out) {
  const ControlCommand& c = *find(name);
  po::options_description options;
  options.add_options()("help,h", "")("socket", po::value<std::string>(), "")(
      "args", po::value<std::vector<std::string>>()->default_value({}, ""), "");
  if (c.reads) options.add_options()("json", "");
  if (c.name == "set-time") options.add_options()("moves", po::value<int>(), "");
  if (c.name == "result") options.add_options()("reason", po::value<std::string>(), "");
  if (c.name == "new-game")
    options.add_options()("white", po::value<std::string>(), "")(
        "black", po::value<std::string>(), "")("event", po::value<std::string>(), "")(
        "site", po::value<std::string>(), "")("round", po::value<std::string>(), "")(
        "time-control", po::value<std::string>(), "")("chess960", po::value<int>(), "")(
        "fen", po::value<std::string>(), "")("player", po::value<std::string>(), "");
  po::positional_options_description positional;
  positional.add("args", -1);
  const po::variables_map vm = parse_arguments(args, options, positional);
  if (vm.count("help")) {
    out << control_help(name);
    return kExitOk;
  }
  const json request = build_request(c, vm);
  const std::string path = vm.count("socket") ? vm["socket"].as<std::string>() : default_socket();
  int fd = -1;
  try {
    fd = connect_to(path);
  } catch (const std::runtime_error& e) {
    std::cerr << "tactilectl " << name << ": " << e.what() << "\n";
    return kExitNoDaemon;
  }
  std::string buffer, line;
  const bool sent =
      send_line(fd, (name == "events" ? json{{"command", "subscribe"}} : request).dump() + "\n");
  if (!sent || !read_line(fd, buffer, line)) {
    ::close(fd);
    std::cerr << "tactilectl " << name << ": no answer from tactiled at " << path << "\n";
    return kExitNoDaemon;
  }
  const json answer = json::parse(line, nullptr, false);
  if (answer.is_discarded() || !answer.is_object()) {
    ::close(fd);
    std::cerr << "tactilectl " << name << ": tactiled answered something that is not JSON\n";
    return kExitNoDaemon;
  }
  if (!answer.value("ok", false)) {
    ::close(fd);
    std::cerr << "tactilectl " << name << ": refused: " << answer.value("error", "?") << "\n";
    return kExitRefused;
  }
  const bool as_json = c.reads && vm.count("json");
  if (name == "events") {
    // Every record as it is written, until the stream ends.
    timeval none{0, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    while (read_line(fd, buffer, line)) out << line << std::endl;
    ::close(fd);
    return kExitOk;
  }
  ::close(fd);
  if (as_json) {
    out << answer.dump() << "\n";
  } else if (name == "status") {
    print_status(answer, out);
  } else if (name == "time") {
    out << "white  " << clock_text(answer["white_ms"]) << "\nblack  "
        << clock_text(answer["black_ms"]) << "\nmoves  " << text_of(answer, "white_moves") << "\n";
    if (answer.contains("said")) out << "said   " << text_of(answer, "said") << "\n";
  } else if (name == "ping") {
    out << "tactiled answers\n";
  } else if (answer.contains("start_held")) {
    // Training against an engine that has not answered yet: the clocks wait for it.
    out << name << ": held; " << text_of(answer, "start_held") << "\n";
    if (answer.contains("faults") && answer["faults"].is_array() && !answer["faults"].empty()) {
      out << "warning: a fault stands (tactilectl status):\n";
      print_faults(answer, out);
    }
  } else {
    out << name << ": done; " << text_of(answer, "turn") << " to move, white "
        << clock_text(answer["white_ms"]) << ", black " << clock_text(answer["black_ms"])
        << ", running " << text_of(answer, "running") << "\n";
    // Done all the same, but a game begun with a player who hears nothing (or a display
    // that shows nothing) is the arbiter's to know before it runs.
    if ((name == "start" || name == "new-game") && answer.contains("faults") &&
        answer["faults"].is_array() && !answer["faults"].empty()) {
      out << "warning: a fault stands (tactilectl status):\n";
      print_faults(answer, out);
    }
  }
  return kExitOk;
}

}  // namespace tactile::ctl
