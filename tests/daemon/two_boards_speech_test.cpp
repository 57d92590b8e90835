// SPDX-License-Identifier: GPL-3.0-or-later
// Each board's own speech output, end to end: the real tactiled binary in live mode on two
// script boards (FIFOs), speech on, board A's player on ALSA device `board_a` and board
// B's on `board_b`. No sound card: the test's ALSA configuration makes each a PCM of type
// `file` that writes the raw samples it plays to a file of its own, through the real
// libasound. What each file receives is compared with the espeak-ng program's speech of
// the phrase the log says that board's player was told.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/daemon/control_client.h"
#include "tests/daemon/daemon_process.h"
#include "tests/support/spoken_audio.h"

namespace tactile::serial::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;
using Log = std::vector<nlohmann::json>;
using tactile::test::espeak_program;
using tactile::test::Samples;
using tactile::test::samples_of;
using tactile::test::voiced;

class TwoBoardsSpeechTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("two-boards-speech");
    log_ = dir_ + "/game.jsonl";
    std::ofstream(dir_ + "/asound.conf") << tactile::test::two_file_pcms(dir_);
    for (const char* board : {"a", "b"})
      ASSERT_EQ(::mkfifo((dir_ + "/" + board + ".fifo").c_str(), 0600), 0);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // `control`: the control socket's path, or off.
  std::string config(const std::string& device_b, const std::string& control) {
    const std::string path = dir_ + "/tactiled.conf";
    std::ofstream conf(path, std::ios::trunc);
    conf << "seating = two-boards\nboard-a = script\nscript = " << dir_
         << "/a.fifo\nboard-b = script\nscript-b = " << dir_
         << "/b.fifo\ncompletion = auto\nsettle-ms = 300\nlanguage = en\nlanguage-b = de\n"
            "time-control = 300+2\nspeech = on\nspeech-device = board_a\nspeech-device-b = "
         << device_b << "\ncontrol = " << control << "\nlog = " << log_ << "\npgn = " << dir_
         << "/game.pgn\n";
    return path;
  }
  void start(const std::string& device_b, const std::string& control = "off") {
    Daemon::Environment env{{"ALSA_CONFIG_PATH", dir_ + "/asound.conf"}};
    env.insert(env.end(), env_.begin(), env_.end());
    daemon_ = std::make_unique<Daemon>(
        dir_, std::vector<std::string>{"--config", config(device_b, control)}, "", "daemon", env);
    // Both scripts opened for writing keep the daemon's reading ends from seeing an end.
    for (const char* board : {"a", "b"})
      fifo_[board[0] - 'a'].open(dir_ + "/" + board + ".fifo", std::ios::app);
  }
  void on(int board, std::initializer_list<const char*> lines) {
    for (const char* line : lines)
      fifo_[board] << "0 " << (board == 0 ? "A " : "B ") << line << "\n";
    fifo_[board].flush();
  }
  // Polls until `done` holds; false when the daemon exits first or after a minute (which
  // only guards against a hang).
  bool until(const std::function<bool()>& done) {
    for (const auto limit = Clock::now() + std::chrono::seconds(60); Clock::now() < limit;) {
      if (done()) return true;
      if (!daemon_->running()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  bool logged(const std::function<bool(const nlohmann::json&)>& match, int n = 1) {
    return until([&] { return count(log_entries(log_), match) >= n; });
  }
  Samples heard(const char* board) const { return samples_of(slurp(dir_ + "/" + board + ".raw")); }
  // The phrases the log says were spoken to `board` ("A" or "B"), in order.
  std::vector<std::string> said_to(const char* board) const {
    std::vector<std::string> texts;
    for (const auto& j : log_entries(log_))
      if (is_on_board(j, "speak", board)) texts.push_back(j.value("text", ""));
    return texts;
  }

  std::string dir_, log_;
  Daemon::Environment env_;  // more of the daemon's environment
  std::unique_ptr<Daemon> daemon_;
  std::ofstream fifo_[2];
};

TEST_F(TwoBoardsSpeechTest, EachPlayerHearsHisOwnPhrasesOnHisOwnDevice) {
  start("board_b");
  ASSERT_TRUE(logged([](auto& j) { return j.value("type", "") == "start"; })) << daemon_->output();
  EXPECT_TRUE(said_to("B").empty());
  EXPECT_EQ(voiced(heard("b")), 0.0);  // nothing for B's player before a move to announce
  // 1. e4 on White's board A: confirmed to A, announced to B.
  on(0, {"up e2", "down e4"});
  ASSERT_TRUE(logged(is_made)) << daemon_->output();
  ASSERT_TRUE(logged([](auto& j) { return is_on_board(j, "speak", "B"); })) << daemon_->output();
  const std::vector<std::string> to_b = said_to("B");
  ASSERT_EQ(to_b.size(), 1u);
  EXPECT_EQ(to_b[0], "Bauer Eva vier");
  // Board B's device receives the announcement, in German: the length of the espeak-ng
  // program's speech of it (not of A's English phrase).
  const double expected_b = voiced(espeak_program("de", to_b[0]));
  ASSERT_GT(expected_b, 0.0);
  ASSERT_TRUE(until([&] { return voiced(heard("b")) >= 0.97 * expected_b; }))
      << voiced(heard("b")) << " of " << expected_b << "\n"
      << daemon_->output();
  const std::vector<std::string> to_a = said_to("A");
  ASSERT_FALSE(to_a.empty());
  double expected_a = 0;
  for (const std::string& text : to_a)
    expected_a += voiced(espeak_program(tactile::test::kEnglishVoice, text));
  ASSERT_TRUE(until([&] { return voiced(heard("a")) >= 0.97 * expected_a; }))
      << voiced(heard("a")) << " of " << expected_a << "\n"
      << daemon_->output();
  const int status = daemon_->stop();
  ASSERT_TRUE(WIFEXITED(status)) << daemon_->output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon_->output();
  // All is played by now: each device got its own player's speech and no more (the
  // other board's phrase is of another length: "Pawn Eva four" is not "Bauer Eva vier").
  EXPECT_NEAR(voiced(heard("b")), expected_b, 0.03 * expected_b);
  EXPECT_NEAR(voiced(heard("a")), expected_a, 0.1 * expected_a);
}

TEST_F(TwoBoardsSpeechTest, ADeviceThatCannotBeOpenedIsNamedAndTheGameGoesOn) {
  const std::string control = dir_ + "/control";
  start("no_such_device", control);
  ASSERT_TRUE(logged([](auto& j) { return j.value("type", "") == "start"; })) << daemon_->output();
  on(0, {"up e2", "down e4"});
  ASSERT_TRUE(logged(is_made)) << daemon_->output();
  on(1, {"up e2", "down e4"});
  ASSERT_TRUE(logged([](auto& j) { return is_on_board(j, "mirrored", "B"); })) << daemon_->output();
  EXPECT_THAT(daemon_->output(),
              HasSubstr("speech-device-b: cannot open ALSA device 'no_such_device'"));
  // The arbiter sees it in the status while the game goes on.
  daemon::test::ControlClient client(control);
  ASSERT_TRUE(client.connected()) << daemon_->output();
  const nlohmann::json answer = client.ask({{"command", "status"}});
  ASSERT_TRUE(answer.contains("faults")) << answer.dump();
  ASSERT_EQ(answer["faults"].size(), 1u) << answer.dump();
  EXPECT_THAT(answer["faults"][0].get<std::string>(),
              HasSubstr("speech-device-b: cannot open ALSA device 'no_such_device'"));
  // Board A's player still hears his confirmation.
  ASSERT_TRUE(until([&] { return voiced(heard("a")) > 0; })) << daemon_->output();
  const int status = daemon_->stop();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << daemon_->output();
}

// Board A's English voice cannot be heard (its dictionary missing from a copy of
// espeak-ng's data, ESPEAK_DATA_PATH): a fault from the start, board B's German speech
// unharmed. The dictionary put back, espeak-ng loads it at the next switch from B's voice to
// A's: A's next phrase is heard, the fault is cleared in the log, and A's player is told
// that he missed announcements.
TEST_F(TwoBoardsSpeechTest, AVoiceThatComesBackIsSaidOnce) {
  std::string version;
  {
    std::unique_ptr<FILE, int (*)(FILE*)> p(::popen("espeak-ng --version", "r"), ::pclose);
    char buf[512];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p.get())) version.append(buf, n);
  }
  const std::size_t at = version.find("Data at: ");
  ASSERT_NE(at, std::string::npos) << version;
  const std::string system_data = version.substr(at + 9, version.find('\n', at) - at - 9);
  const std::string data = dir_ + "/espeak/espeak-ng-data";
  fs::create_directories(data);
  fs::copy(system_data, data, fs::copy_options::recursive);
  ASSERT_TRUE(fs::remove(data + "/en_dict"));
  env_ = {{"ESPEAK_DATA_PATH", dir_ + "/espeak"}};
  start("board_b");
  const std::string fault =
      "speech-device: espeak-ng voice 'en-us+klatt2' gives silence (is its data missing from "
      "espeak-ng-data?)";
  ASSERT_TRUE(logged([&](auto& j) { return j.value("fault", "") == fault; })) << daemon_->output();
  EXPECT_THAT(daemon_->output(), HasSubstr("tactiled: " + fault));
  fs::copy_file(system_data + "/en_dict", data + "/en_dict");
  // 1. e4: announced to B in German (the voice switches), confirmed to A in English.
  on(0, {"up e2", "down e4"});
  ASSERT_TRUE(logged([&](auto& j) { return j.value("cleared", "") == fault; }))
      << daemon_->output();
  ASSERT_TRUE(logged([](auto& j) {
    return is_on_board(j, "speak", "A") &&
           j.value("text", "") == "Speech is back, announcements were missed";
  })) << daemon_->output();
  ASSERT_TRUE(until([&] { return voiced(heard("a")) > 0; })) << daemon_->output();
  const int status = daemon_->stop();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << daemon_->output();
  // Once each: the fault and its end.
  EXPECT_EQ(count(log_entries(log_), [](auto& j) { return j.value("type", "") == "fault"; }), 2);
}

}  // namespace
}  // namespace tactile::serial::test
