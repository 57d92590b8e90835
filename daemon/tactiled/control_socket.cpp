// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/control_socket.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tactile::daemon {
namespace {

std::runtime_error socket_error(const std::string& path, const char* what) {
  return std::runtime_error("control socket '" + path + "': " + what + ": " + std::strerror(errno));
}

// Whether a daemon listens on the socket at `addr`: 0 when one accepts (or its queue of
// connections is full: it is there, only busy), else the errno of the attempt
// (ECONNREFUSED: a socket file nobody listens on, left by a daemon that died).
int answers(const sockaddr_un& addr) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  int error = 0;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) error = errno;
  ::close(fd);
  if (error == EAGAIN || error == EINPROGRESS) return 0;
  return error;
}

nlohmann::json error_answer(const std::string& why) {
  return {{"ok", false}, {"error", why}};
}

}  // namespace

bool peer_allowed(uid_t uid, gid_t gid, const std::vector<gid_t>& groups, uid_t own_uid,
                  gid_t group) {
  if (uid == 0 || uid == own_uid) return true;
  if (group == gid_t(-1)) return false;
  return gid == group || std::find(groups.begin(), groups.end(), group) != groups.end();
}

ControlSocket::ControlSocket(const std::string& path, Handler handler)
    : path_(path), handler_(std::move(handler)) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path)
    throw std::runtime_error("control socket '" + path + "': the path is empty or too long");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw socket_error(path, "socket");
  // Only a socket left by an earlier run is replaced, never another kind of file, and
  // never the socket of a daemon that answers there: it is still playing its game.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      ::close(listen_fd_);
      throw std::runtime_error("control socket '" + path +
                               "': a file that is not a socket is there");
    }
    const int answered = answers(addr);
    if (answered != ECONNREFUSED && answered != ENOENT) {
      ::close(listen_fd_);
      if (answered == 0)
        throw ControlSocketTaken("control socket '" + path +
                                 "': a running tactiled answers there; stop it first, or give "
                                 "this one its own control = PATH");
      throw ControlSocketTaken(
          "control socket '" + path +
          "': cannot tell whether a tactiled answers there: " + std::strerror(answered));
    }
    ::unlink(path.c_str());  // left by a daemon that is gone: nobody listens
  }
  // Created with no access for others from the first instant; the group is set before
  // the group may connect.
  const mode_t old = ::umask(0117);
  const int bound = ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::umask(old);
  if (bound != 0) {
    const auto e = socket_error(path, "bind");
    ::close(listen_fd_);
    throw e;
  }
  if (const group* g = ::getgrnam("tactiled")) {
    group_ = g->gr_gid;
    if (::chown(path.c_str(), uid_t(-1), group_) != 0) group_ = gid_t(-1);
  }
  ::chmod(path.c_str(), 0660);
  // The socket file this daemon made: only it is removed at the stop.
  if (::lstat(path.c_str(), &st) == 0) dev_ = st.st_dev, ino_ = st.st_ino;
  if (::listen(listen_fd_, 8) != 0) {
    const auto e = socket_error(path, "listen");
    ::close(listen_fd_);
    unlink_own();
    throw e;
  }
}

ControlSocket::~ControlSocket() {
  for (auto& c : clients_) ::close(c->fd);
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    unlink_own();
  }
}

void ControlSocket::unlink_own() const {
  // Another daemon may have been given the path since (by hand, the socket removed): its
  // socket is not this one's to remove.
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == dev_ &&
      st.st_ino == ino_)
    ::unlink(path_.c_str());
}

void ControlSocket::add_fds(std::vector<pollfd>& fds) const {
  fds.push_back({listen_fd_, POLLIN, 0});
  for (const auto& c : clients_) {
    short events = c->closing ? 0 : POLLIN;
    if (!c->out.empty()) events |= POLLOUT;
    fds.push_back({c->fd, events, 0});
  }
}

void ControlSocket::step(const pollfd* fds, std::size_t count) {
  // fds[0] is the listening socket, then one per client in order.
  for (std::size_t i = 1; i < count && i - 1 < clients_.size(); ++i) {
    Client& c = *clients_[i - 1];
    if (fds[i].fd != c.fd) continue;
    if (fds[i].revents & (POLLERR | POLLHUP | POLLNVAL)) {
      if (!(fds[i].revents & POLLIN)) c.closing = true, c.out.clear();
    }
    if (fds[i].revents & POLLIN) read_from(c);
    if (!c.out.empty() && (fds[i].revents & POLLOUT)) write_to(c);
  }
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::function<void()>> released;
  std::erase_if(clients_, [now, &released](const std::unique_ptr<Client>& c) {
    const bool held = c->on_release != nullptr;
    const bool idle = !c->subscriber && !held && c->out.empty() && now - c->active > kIdleTimeout;
    const bool gone = c->fd < 0 || (c->closing && c->out.empty()) || idle;
    if (gone && c->fd >= 0) ::close(c->fd);
    if (gone && held) released.push_back(std::move(c->on_release));
    return gone;
  });
  // Once the clients are in order again: what a release does (log a record, which is
  // published to the subscribers) may use the socket.
  for (const auto& release : released) release();
  if (count > 0 && (fds[0].revents & POLLIN)) accept_clients();
}

std::size_t ControlSocket::counted(uid_t uid) const {
  return std::size_t(std::count_if(clients_.begin(), clients_.end(), [uid](const auto& c) {
    return !c->on_release && (uid == uid_t(-1) || c->uid == uid);
  }));
}

void ControlSocket::accept_clients() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN: no more now
    ucred cred{};
    socklen_t len = sizeof cred;
    std::vector<gid_t> groups(64);
    socklen_t glen = socklen_t(groups.size() * sizeof(gid_t));
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups.data(), &glen) == 0)
      groups.resize(glen / sizeof(gid_t));
    else
      groups.clear();
    const bool known = ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0;
    if (!known || !peer_allowed(cred.uid, cred.gid, groups, ::geteuid(), group_)) {
      ::close(fd);
      continue;
    }
    if ((counted(cred.uid) >= kMaxPerPeer && !evict_idle(cred.uid)) ||
        (counted(uid_t(-1)) >= kMaxClients && !evict_idle(uid_t(-1)))) {
      ::close(fd);
      continue;
    }
    auto c = std::make_unique<Client>();
    c->fd = fd;
    c->uid = cred.uid;
    c->active = std::chrono::steady_clock::now();
    clients_.push_back(std::move(c));
  }
}

bool ControlSocket::evict_idle(uid_t uid) {
  // The longest idle client that only asks; failing one, the subscriber silent longest
  // (its last request, the subscription, is the oldest): subscribers that never read or
  // ask again must not keep `status` out (a subscriber that is dropped may subscribe anew).
  const auto longest_idle = [&](bool subscribers) {
    auto oldest = clients_.end();
    for (auto it = clients_.begin(); it != clients_.end(); ++it) {
      const Client& c = **it;
      if (c.subscriber != subscribers || c.on_release || (uid != uid_t(-1) && c.uid != uid))
        continue;
      if (oldest == clients_.end() || c.active < (*oldest)->active) oldest = it;
    }
    return oldest;
  };
  auto oldest = longest_idle(false);
  if (oldest == clients_.end()) oldest = longest_idle(true);
  if (oldest == clients_.end()) return false;
  ::close((*oldest)->fd);
  clients_.erase(oldest);
  return true;
}

void ControlSocket::read_from(Client& c) {
  char buf[4096];
  // A bounded share of the loop per step: a client that floods waits for the next turn.
  for (int reads = 0; reads < 16; ++reads) {
    const ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n > 0) {
      c.in.append(buf, std::size_t(n));
      for (std::size_t nl; (nl = c.in.find('\n')) != std::string::npos;) {
        const std::string line = c.in.substr(0, nl);
        c.in.erase(0, nl + 1);
        c.active = std::chrono::steady_clock::now();
        if (!c.closing) answer(c, line);
      }
      if (c.in.size() > kMaxLine) {  // a flood with no end of line: dropped
        c.closing = true;
        c.out.clear();
        return;
      }
      if (c.closing) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) c.closing = true;  // the client is done; what it asked for is still sent
    return;
  }
}

void ControlSocket::answer(Client& c, const std::string& line) {
  nlohmann::json reply;
  const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
  if (line.size() > kMaxLine)
    reply = error_answer("request longer than 4096 bytes");
  else if (request.is_discarded() || !request.is_object())
    reply = error_answer("not a JSON object");
  else {
    Caller caller{c.uid, nullptr};
    reply = handler_(request, caller);
    // A connection may hold more than one thing (both boards): each is released.
    if (caller.on_release && c.on_release)
      c.on_release = [first = std::move(c.on_release), then = std::move(caller.on_release)] {
        first();
        then();
      };
    else if (caller.on_release)
      c.on_release = std::move(caller.on_release);
  }
  if (reply.value("subscribe", false)) c.subscriber = true;
  c.out += reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  c.out += '\n';
  write_to(c);
}

void ControlSocket::write_to(Client& c) {
  while (!c.out.empty()) {
    const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n > 0) {
      c.out.erase(0, std::size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      c.out.clear();
      c.closing = true;
    }
    break;
  }
  if (c.out.size() > kMaxPending) {  // it does not read: never waited for
    c.out.clear();
    c.closing = true;
  }
}

void ControlSocket::publish(const std::string& line) {
  for (auto& c : clients_) {
    if (!c->subscriber || c->closing) continue;
    c->out += line;
    if (line.empty() || line.back() != '\n') c->out += '\n';
    write_to(*c);
  }
}

}  // namespace tactile::daemon
