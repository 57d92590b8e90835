// SPDX-License-Identifier: GPL-3.0-or-later
// Live mode's DGT ports (issue 36, docs/dgt.md): each board with `dgt-port` (board B's
// `dgt-port-b`) is a DGT board to whatever host opens the port (LiveChess, PicoChess,
// dgtnix): the board tactiled reports (core/dgt/board_emulation.h) follows the board's holes
// as they change and the game after every move; the clock is tactiled's own. A host's
// connection, the commands it sends (each kind once a connection, every clock command) and
// what was skipped or dropped are logged (`dgt` records) before they are answered. Polled in
// live.cpp's loop.
#pragma once

#include <poll.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/dgt/board_emulation.h"
#include "core/dgt/command_reader.h"
#include "core/game/session.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/dgt_port.h"
#include "daemon/tactiled/game_runner.h"

namespace tactile::daemon {

// A host silent this long and then heard again is a new connection (PicoChess asks for the
// serial number every second, LiveChess polls all the time).
constexpr std::int64_t kDgtHostSilenceMs = 5000;
// A device port that failed is opened again this often.
constexpr std::int64_t kDgtReopenMs = 2000;

class LiveDgt {
 public:
  LiveDgt(const LiveConfig& config, GameRunner& runner, std::ostream& journal);

  bool any() const { return ports_[0] || ports_[1]; }
  // Opens each port the config names; throws std::runtime_error("dgt-port: why").
  void open(const game::Session& session);
  void add_fds(std::vector<pollfd>& fds);
  // After poll: each port's commands read, logged and answered; the board reported follows
  // the game; the clock sent as the host's mode asks.
  void step(const std::vector<pollfd>& fds, std::int64_t now, const game::Session& session);
  // A hole of `board` changed (once the session has taken it).
  void hole(int board, const board::HoleEvent& e);
  // How long the loop may wait (-1: as long as it likes).
  std::int64_t timeout_ms(std::int64_t now, const game::Session& session) const;

 private:
  struct Port {
    std::string key;                // "dgt-port", "dgt-port-b"
    std::string path;               // as dgt-port gives it
    std::unique_ptr<DgtPort> port;  // null while a failed device waits to be opened again
    std::int64_t retry_ms = 0;      // when it is tried again
    dgt::DgtCommandReader reader;
    std::optional<dgt::DgtBoardEmulation> board;
    std::uint64_t game_key = 0;  // the position last followed (its hash and its moves)
    int game_plies = -1;
    std::int64_t last_heard_ms = -1;  // when the host last sent something (-1: never)
    std::set<std::string> logged;     // the commands logged this connection
    std::size_t poll_at = 0;          // its place in the poll
  };
  // `hung_up`: poll said the device hung up or failed.
  void serve(Port& p, std::int64_t now, const game::Session& session, bool hung_up);
  // Opens a failed device again when its time has come; whether it is open.
  bool reopen(Port& p, std::int64_t now);
  void send(Port& p, const dgt::Bytes& bytes, std::int64_t now);
  void note(const Port& p, game::LogEntry j, std::int64_t now);
  dgt::ClockFace face(const game::Session& session, std::int64_t now) const;

  const LiveConfig& config_;
  GameRunner& runner_;
  std::ostream& journal_;
  std::array<std::unique_ptr<Port>, 2> ports_;  // board A's, board B's (null: none)
};

}  // namespace tactile::daemon
