// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/live_dgt.h"

#include <algorithm>
#include <stdexcept>

#include "core/game/board_letter.h"

namespace tactile::daemon {

LiveDgt::LiveDgt(const LiveConfig& config, GameRunner& runner, std::ostream& journal)
    : config_(config), runner_(runner), journal_(journal) {}

void LiveDgt::open(const game::Session& session) {
  for (int b = 0; b < 2; ++b) {
    const BoardSetup* setup = b == 0 ? &config_ : config_.board_b ? &*config_.board_b : nullptr;
    if (!setup || setup->dgt_port.empty()) continue;
    auto p = std::make_unique<Port>();
    p->key = b == 0 ? "dgt-port" : "dgt-port-b";
    p->path = setup->dgt_port;
    try {
      p->port = std::make_unique<DgtPort>(setup->dgt_port);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(p->key + ": " + e.what());
    }
    p->board.emplace(session.position());
    p->game_key = session.position().key();
    p->game_plies = session.moves_made();
    journal_ << "tactiled: " << p->key << ": board " << game::board_letter(b)
             << " is a DGT board on "
             << (p->port->pseudo_terminal() ? setup->dgt_port + " (a link to the pseudo-terminal " +
                                                  p->port->device() + ")"
                                            : setup->dgt_port)
             << std::endl;
    ports_[std::size_t(b)] = std::move(p);
  }
}

void LiveDgt::add_fds(std::vector<pollfd>& fds) {
  for (auto& p : ports_) {
    if (!p || !p->port) continue;
    p->poll_at = fds.size();
    fds.push_back({p->port->fd(), p->port->poll_events(), 0});
  }
}

dgt::ClockFace LiveDgt::face(const game::Session& session, std::int64_t now) const {
  dgt::ClockFace f;
  const auto& clock = session.clock();
  if (!clock) {
    f.present = false;
    return f;
  }
  const clock::ClockReading r = clock->reading(std::max(now, runner_.last_ms()));
  f.white_ms = r.remaining_ms[chess::White];
  f.black_ms = r.remaining_ms[chess::Black];
  f.running = clock->running_any() && !session.over();
  f.to_move = r.running;
  return f;
}

void LiveDgt::note(const Port& p, game::LogEntry j, std::int64_t now) {
  if (runner_.log_lines() == 0) return;  // no game yet: nothing to log into
  game::LogEntry entry;
  entry["t"] = std::max(now, runner_.last_ms());
  entry["type"] = "dgt";
  entry["port"] = p.key;
  for (auto& [k, v] : j.items()) entry[k] = v;
  runner_.note(entry);
}

void LiveDgt::send(Port& p, const dgt::Bytes& bytes, std::int64_t now) {
  if (bytes.empty()) return;
  if (bytes.empty() || !p.port) return;
  if (const std::size_t dropped = p.port->write(bytes); dropped > 0) {
    game::LogEntry j;
    j["errors"] = {"the host has not read: " + std::to_string(dropped) + " bytes dropped"};
    note(p, j, now);
  }
}

void LiveDgt::step(const std::vector<pollfd>& fds, std::int64_t now, const game::Session& session) {
  for (auto& p : ports_) {
    if (!p) continue;
    const short revents = p->port && p->poll_at < fds.size() ? fds[p->poll_at].revents : 0;
    if (revents & POLLOUT) p->port->flush();
    serve(*p, now, session, p->port && p->port->failed(revents));
  }
}

void LiveDgt::serve(Port& p, std::int64_t now, const game::Session& session, bool hung_up) {
  const dgt::ClockFace f = face(session, now);
  if (!p.port && !reopen(p, now)) return;
  std::vector<std::uint8_t> bytes;
  try {
    bytes = p.port->read();
    // A device that hung up would wake the loop at once for ever: closed as a failure.
    if (hung_up && bytes.empty()) throw std::runtime_error(p.path + ": hung up");
  } catch (const std::runtime_error& e) {
    // A device gone (a gadget unbound, a Bluetooth link dropped): closed, logged and
    // opened again every kDgtReopenMs; the game goes on meanwhile.
    game::LogEntry j;
    j["errors"] = {std::string(e.what()) + ": the port is closed"};
    note(p, j, now);
    journal_ << "tactiled: " << p.key << ": " << e.what() << "; opened again when it can be"
             << std::endl;
    p.port.reset();
    p.retry_ms = now + kDgtReopenMs;
    p.last_heard_ms = -1;
    return;
  }
  std::vector<dgt::Command> commands;
  std::vector<dgt::ReadError> errors;
  if (!bytes.empty()) {
    game::LogEntry j;
    if (p.last_heard_ms < 0 || now - p.last_heard_ms >= kDgtHostSilenceMs) {
      p.logged.clear();
      j["connected"] = true;
      journal_ << "tactiled: " << p.key << ": a DGT host is talking" << std::endl;
    }
    p.last_heard_ms = now;
    p.reader.feed(bytes, now, commands, errors);
    // Every command's kind once a connection (PicoChess's watchdog would fill the log),
    // each clock command, everything skipped or dropped: logged before it is answered.
    nlohmann::ordered_json named = nlohmann::ordered_json::array();
    dgt::DgtBoardEmulation probe = *p.board;  // what the answers will say of each
    for (const dgt::Command& c : commands) {
      dgt::Bytes ignored;
      const std::string said = probe.command(c, f, now, ignored);
      const std::string name = dgt::command_name(c) + (said.empty() ? "" : ": " + said);
      if (c.kind == dgt::Command::Kind::Clock || p.logged.insert(name).second)
        named.push_back(name);
    }
    if (!named.empty()) j["commands"] = named;
    if (!errors.empty()) {
      nlohmann::ordered_json listed = nlohmann::ordered_json::array();
      for (const dgt::ReadError& e : errors)
        if (listed.size() < 20) listed.push_back(e.what);
      j["errors"] = listed;
      if (errors.size() > listed.size()) j["errors_not_listed"] = errors.size() - listed.size();
    }
    if (!j.empty()) note(p, j, now);
  } else {
    p.reader.expire(now, errors);
    if (!errors.empty()) {
      game::LogEntry j;
      j["errors"] = {errors[0].what};
      note(p, j, now);
    }
  }
  dgt::Bytes out;
  for (const dgt::Command& c : commands) p.board->command(c, f, now, out);
  // The game moved on (a move, a rollback, a new game): the board reported becomes it.
  if (session.position().key() != p.game_key || session.moves_made() != p.game_plies) {
    p.game_key = session.position().key();
    p.game_plies = session.moves_made();
    p.board->follow(session.position(), out);
  }
  p.board->clock(f, now, out);
  send(p, out, now);
}

bool LiveDgt::reopen(Port& p, std::int64_t now) {
  if (now < p.retry_ms) return false;
  try {
    p.port = std::make_unique<DgtPort>(p.path);
  } catch (const std::runtime_error&) {
    p.retry_ms = now + kDgtReopenMs;
    return false;
  }
  journal_ << "tactiled: " << p.key << ": " << p.path << " open again" << std::endl;
  // What the host had is gone with the device: it asks for the board when it comes back.
  dgt::Bytes ignored;
  p.board->command(dgt::Command{.kind = dgt::Command::Kind::Single, .id = dgt::kReset}, {}, now,
                   ignored);
  return true;
}

void LiveDgt::hole(int board, const board::HoleEvent& e) {
  auto& p = ports_[board == 1 && config_.board_b ? 1u : 0u];
  if (!p) return;
  dgt::Bytes out;
  p->board->hole(e.square, e.change == board::Hole::Down, out);
  send(*p, out, e.ms);
}

std::int64_t LiveDgt::timeout_ms(std::int64_t now, const game::Session& session) const {
  std::int64_t wait = -1;
  auto sooner = [&](std::int64_t at) {
    if (at < 0) return;
    const std::int64_t w = std::max<std::int64_t>(0, at - now);
    wait = wait < 0 ? w : std::min(wait, w);
  };
  for (const auto& p : ports_) {
    if (!p) continue;
    if (!p->port) sooner(p->retry_ms);
    sooner(p->reader.deadline());
    sooner(p->board->clock_deadline(face(session, now), now));
  }
  return wait;
}

}  // namespace tactile::daemon
