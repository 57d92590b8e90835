// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's control socket (docs/daemon.md): a Unix stream socket, one JSON request a
// line, one JSON answer a line. It never blocks the daemon's single-threaded loop: every
// descriptor is non-blocking, input and output are bounded, and a client that sends a
// line too long, or does not read what it asked for (a slow subscriber), is dropped.
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tactile::daemon {

// The control socket's path is another daemon's: one answers there (or whether one does
// cannot be told). Nothing was removed; tactiled exits with status 2.
struct ControlSocketTaken : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ControlSocket {
 public:
  static constexpr std::size_t kMaxLine = 4096;        // a request longer than this: dropped
  static constexpr std::size_t kMaxPending = 1 << 18;  // unsent answers/events: dropped
  static constexpr std::size_t kMaxClients = 16;
  static constexpr std::size_t kMaxPerPeer = 8;  // connections of one user id
  // A client that is not a subscriber and has asked nothing for this long is dropped; and
  // when the socket is full (kMaxClients, or kMaxPerPeer of the user) a new client takes
  // the place of the longest idle one, or, when all are subscribers, of the subscriber
  // silent longest. So neither idle clients nor silent subscribers keep `status` out.
  static constexpr std::chrono::milliseconds kIdleTimeout{5000};

  // Who asks: the peer's user id, and a say in its connection. A handler that sets
  // `on_release` holds the connection (a lease, such as a board lent to the self-test:
  // docs/daemon.md): a held connection is never dropped as idle or to make room, counts
  // against no limit (whoever holds one is bounded by the daemon: one per board), and
  // `on_release` is called once, from step(), when it closes for any reason (the peer
  // closed it or died, or it was dropped: a line too long, answers not read), but not
  // when the socket itself goes away (the daemon stops).
  struct Caller {
    uid_t uid = 0;
    std::function<void()> on_release;
  };
  // The answer to one request. A request whose answer carries "subscribe": true makes its
  // client a subscriber of the event stream.
  using Handler = std::function<nlohmann::json(const nlohmann::json& request, Caller& caller)>;

  // Listens at `path`. A socket there that nobody listens on (left by a daemon that died)
  // is replaced; one where a daemon answers is left alone and ControlSocketTaken thrown.
  // At the stop the socket file is removed only if it is still this one's (the same
  // inode). The socket file is 0660 and belongs to group `tactiled` when that group
  // exists, so that only root and its members may connect; the peer's credentials are
  // checked again at accept. Throws std::runtime_error naming the path.
  ControlSocket(const std::string& path, Handler handler);
  ~ControlSocket();
  ControlSocket(const ControlSocket&) = delete;
  ControlSocket& operator=(const ControlSocket&) = delete;

  // Adds the descriptors to wait on; step() then handles what poll reported for them
  // (`fds` from `first` on, as added).
  void add_fds(std::vector<pollfd>& fds) const;
  void step(const pollfd* fds, std::size_t count);
  // Sends `line` (one log record) to every subscriber; one that is too far behind is
  // dropped.
  void publish(const std::string& line);
  const std::string& path() const { return path_; }

 private:
  struct Client {
    int fd = -1;
    uid_t uid = 0;
    std::string in, out;
    bool subscriber = false;
    std::function<void()> on_release;              // set: a held connection (Caller)
    bool closing = false;                          // drop once `out` is sent
    std::chrono::steady_clock::time_point active;  // accepted, or its last request
  };
  // Drops the longest idle client that is neither a subscriber nor held, else the
  // subscriber silent longest (of user `uid` only, unless it is -1); false when there is
  // none.
  bool evict_idle(uid_t uid);
  // The clients that count against kMaxClients (of user `uid` only, unless it is -1): all
  // but the held ones.
  std::size_t counted(uid_t uid) const;
  void accept_clients();
  void read_from(Client& c);
  void write_to(Client& c);
  void answer(Client& c, const std::string& line);
  void unlink_own() const;

  std::string path_;
  Handler handler_;
  int listen_fd_ = -1;
  dev_t dev_ = 0;  // the socket file this daemon made, removed only while it is there
  ino_t ino_ = 0;
  gid_t group_ = gid_t(-1);  // the tactiled group, -1 when there is none
  std::vector<std::unique_ptr<Client>> clients_;
};

// Whether a peer with these credentials may use the socket: root, the daemon's own user,
// or a member (primary or supplementary) of `group` (-1: no such group).
bool peer_allowed(uid_t uid, gid_t gid, const std::vector<gid_t>& groups, uid_t own_uid,
                  gid_t group);

}  // namespace tactile::daemon
