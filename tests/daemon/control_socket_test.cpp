// SPDX-License-Identifier: GPL-3.0-or-later
// The control socket's access rule and its file: who may connect, and the socket file
// created for the owner and the group only.
#include "daemon/tactiled/control_socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace tactile::daemon {
namespace {

constexpr uid_t kDaemon = 120;
constexpr gid_t kGroup = 130;

TEST(ControlSocketAccess, RootTheDaemonsUserAndTheGroupOnly) {
  EXPECT_TRUE(peer_allowed(0, 0, {}, kDaemon, kGroup));                  // root
  EXPECT_TRUE(peer_allowed(kDaemon, 999, {}, kDaemon, kGroup));          // the daemon's own user
  EXPECT_TRUE(peer_allowed(1001, kGroup, {}, kDaemon, kGroup));          // primary group tactiled
  EXPECT_TRUE(peer_allowed(1001, 1001, {27, kGroup}, kDaemon, kGroup));  // supplementary
  EXPECT_FALSE(peer_allowed(1001, 1001, {27, 100}, kDaemon, kGroup));
  // No tactiled group on this system: only root and the daemon's user.
  EXPECT_FALSE(peer_allowed(1001, 1001, {gid_t(-1)}, kDaemon, gid_t(-1)));
  EXPECT_TRUE(peer_allowed(0, 0, {}, kDaemon, gid_t(-1)));
}

std::string test_dir() {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("control-socket-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ControlSocketFile, IsASocketForOwnerAndGroupOnlyAndGoesAway) {
  const std::string path = test_dir() + "/ctl";
  {
    ControlSocket socket(
        path, [](const nlohmann::json&, ControlSocket::Caller&) { return nlohmann::json(); });
    struct stat st {};
    ASSERT_EQ(::lstat(path.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0660u);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(ControlSocketFile, AFileThatIsNotASocketIsNeverReplaced) {
  const std::string path = test_dir() + "/ctl";
  std::ofstream(path) << "keep me\n";
  try {
    ControlSocket socket(
        path, [](const nlohmann::json&, ControlSocket::Caller&) { return nlohmann::json(); });
    FAIL() << "accepted a regular file's place";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a socket"), std::string::npos) << e.what();
  }
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "keep me");
}

// One turn of the daemon's loop for the socket alone.
void pump(ControlSocket& socket) {
  std::vector<pollfd> fds;
  socket.add_fds(fds);
  ::poll(fds.data(), nfds_t(fds.size()), 5);
  socket.step(fds.data(), fds.size());
}

int connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  return fd;
}

// Sends `command` on `fd` and pumps the socket until its answer's line is whole (or the
// socket closed on us); the answer.
std::string ask(ControlSocket& socket, int fd, const std::string& command) {
  const std::string request = "{\"command\":\"" + command + "\"}\n";
  EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
  std::string answer;
  for (int turn = 0; turn < 200 && answer.find('\n') == std::string::npos; ++turn) {
    pump(socket);
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) answer.append(buf, std::size_t(n));
    if (n == 0) break;  // closed on us
  }
  return answer;
}

nlohmann::json echo(const nlohmann::json& r, ControlSocket::Caller&) {
  return nlohmann::json{{"ok", true}, {"asked", r.value("command", "")}};
}

ino_t inode_of(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// A second daemon given the path of a running one's socket refuses to start, and neither
// removes nor replaces the socket: the first still answers its arbiter there.
TEST(ControlSocketFile, TheSocketOfADaemonThatAnswersIsNeverTakenOver) {
  const std::string path = test_dir() + "/ctl";
  ControlSocket first(path, echo);
  const ino_t inode = inode_of(path);
  try {
    ControlSocket second(path, echo);
    FAIL() << "took the socket of a daemon that answers";
  } catch (const ControlSocketTaken& e) {
    EXPECT_NE(std::string(e.what()).find("a running tactiled answers there"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(inode_of(path), inode);
  const int fd = connect_to(path);
  EXPECT_EQ(ask(first, fd, "status"), "{\"asked\":\"status\",\"ok\":true}\n");
  ::close(fd);
}

// A socket nobody listens on, left by a daemon that died, is replaced.
TEST(ControlSocketFile, ASocketNobodyListensOnIsReplaced) {
  const std::string path = test_dir() + "/ctl";
  {
    const int dead = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    ASSERT_EQ(::bind(dead, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ::close(dead);  // the file stays, nobody listens: as a SIGKILL leaves it
  }
  ControlSocket socket(path, echo);
  const int fd = connect_to(path);
  EXPECT_EQ(ask(socket, fd, "ping"), "{\"asked\":\"ping\",\"ok\":true}\n");
  ::close(fd);
}

// At its stop a daemon removes its own socket file only: one put there since by another
// daemon (the path freed by hand meanwhile) stays.
TEST(ControlSocketFile, OnlyTheDaemonsOwnSocketIsRemovedAtItsStop) {
  const std::string path = test_dir() + "/ctl";
  auto first = std::make_unique<ControlSocket>(path, echo);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ControlSocket second(path, echo);
  const ino_t inode = inode_of(path);
  first.reset();
  EXPECT_EQ(inode_of(path), inode);
  const int fd = connect_to(path);
  EXPECT_EQ(ask(second, fd, "status"), "{\"asked\":\"status\",\"ok\":true}\n");
  ::close(fd);
}

// Idle clients (a script that connected and hangs, or someone holding connections on
// purpose) never keep the arbiter's `status` out: a new client takes the longest idle
// one's place.
TEST(ControlSocketClients, StatusAnswersWhateverNumberOfIdleClients) {
  const std::string path = test_dir() + "/ctl";
  ControlSocket socket(path, [](const nlohmann::json& r, ControlSocket::Caller&) {
    return nlohmann::json{{"ok", true}, {"asked", r.value("command", "")}};
  });
  std::vector<int> idle;
  for (std::size_t i = 0; i < 3 * ControlSocket::kMaxClients; ++i) {
    idle.push_back(connect_to(path));
    if (i % 2 == 0) ::send(idle.back(), "{\"comm", 6, MSG_NOSIGNAL);  // half a request
    for (int k = 0; k < 3; ++k) pump(socket);
  }
  const int fd = connect_to(path);
  EXPECT_EQ(ask(socket, fd, "status"), "{\"asked\":\"status\",\"ok\":true}\n");
  ::close(fd);
  for (const int c : idle) ::close(c);
}

// A held connection (a board lent to the self-test: the lease is the connection) is never
// dropped: not as the longest idle client when the socket is full, not after the idle
// timeout. It counts against no limit, so status still answers; and when its peer goes,
// the daemon is told once.
TEST(ControlSocketClients, AHeldConnectionStaysUntilItsPeerGoesAndIsReleasedOnce) {
  const std::string path = test_dir() + "/ctl";
  int released = 0;
  ControlSocket socket(path, [&](const nlohmann::json& r, ControlSocket::Caller& caller) {
    if (r.value("command", "") == "hold") caller.on_release = [&] { ++released; };
    return nlohmann::json{{"ok", true}, {"asked", r.value("command", "")}};
  });
  const auto ask = [&](int fd, const std::string& command) {
    return daemon::ask(socket, fd, command);
  };
  const int held = connect_to(path);
  ASSERT_EQ(ask(held, "hold"), "{\"asked\":\"hold\",\"ok\":true}\n");
  // The oldest idle client of all, and of its user: taken for no room.
  std::vector<int> idle;
  for (std::size_t i = 0; i < 3 * ControlSocket::kMaxClients; ++i) {
    idle.push_back(connect_to(path));
    for (int k = 0; k < 3; ++k) pump(socket);
  }
  const int fd = connect_to(path);
  EXPECT_EQ(ask(fd, "status"), "{\"asked\":\"status\",\"ok\":true}\n");
  ::close(fd);
  for (const int c : idle) ::close(c);
  // Past the idle timeout, still there.
  const auto until = std::chrono::steady_clock::now() + ControlSocket::kIdleTimeout +
                     std::chrono::milliseconds(300);
  while (std::chrono::steady_clock::now() < until) pump(socket);
  EXPECT_EQ(released, 0);
  EXPECT_EQ(ask(held, "ping"), "{\"asked\":\"ping\",\"ok\":true}\n");
  ::close(held);
  for (int k = 0; k < 10; ++k) pump(socket);
  EXPECT_EQ(released, 1);
}

}  // namespace
}  // namespace tactile::daemon
