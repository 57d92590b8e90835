// The control socket's access rule and its file: who may connect, and the socket file
// created for the owner and the group only.
#include "daemon/tactiled/control_socket.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
    ControlSocket socket(path, [](const nlohmann::json&, uid_t) { return nlohmann::json(); });
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
    ControlSocket socket(path, [](const nlohmann::json&, uid_t) { return nlohmann::json(); });
    FAIL() << "accepted a regular file's place";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a socket"), std::string::npos) << e.what();
  }
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "keep me");
}

}  // namespace
}  // namespace tactile::daemon
