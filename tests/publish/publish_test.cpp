// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled-publish end to end: a real mosquitto on a free loopback port, the real tactiled
// on the script board (a FIFO written by the test) and the real tactiled-publish; a
// subscriber checks that the broker got exactly the log, in order, and the retained
// state, pgn and status; the broker and the publisher are stopped mid-game.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/daemon/control_client.h"
#include "tests/publish/mqtt_support.h"
#include "tests/support/slurp.h"

namespace tactile::hall::test {
namespace {
using json = nlohmann::json;
using Client = daemon::test::ControlClient;
using tactile::test::slurp;

const std::string kBin = std::string(TACTILED_BINARY_DIR) + "/daemon/";

// The log's whole lines.
std::vector<std::string> log_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::istringstream in(slurp(path));
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  return lines;
}

// The records a consumer keeps: each seq the first time it comes (a duplicate dropped by
// seq, as the contract says), in the order they came.
std::vector<std::string> kept_records(const std::vector<Message>& messages,
                                      const std::string& topic) {
  std::vector<std::string> kept;
  std::set<std::int64_t> seen;
  for (const Message& m : messages) {
    if (!m.topic.starts_with(topic)) continue;
    const json j = json::parse(m.payload);
    if (seen.insert(j["seq"].get<std::int64_t>()).second) kept.push_back(m.payload);
  }
  return kept;
}

std::string last_on(const std::vector<Message>& messages, const std::string& topic) {
  std::string last;
  for (const Message& m : messages)
    if (m.topic == topic) last = m.payload;
  return last;
}

class PublishTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(TACTILED_BINARY_DIR) + "/tests/publish/publish-" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/broker");
    std::filesystem::create_directories(dir_ + "/publish-state");
    fifo_ = dir_ + "/board.fifo";
    ctl_ = dir_ + "/ctl";
    log_ = dir_ + "/game.jsonl";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    broker_ = std::make_unique<Broker>(dir_ + "/broker");
    broker_->start();
    std::ofstream conf(dir_ + "/publish.conf");
    conf << "broker-host = 127.0.0.1\nbroker-port = " << broker_->port()
         << "\nhall = testhall\ntable = 7\n"
         << "control = " << ctl_ << "\nstate-directory = " << dir_ << "/publish-state\n";
  }
  void TearDown() override {
    if (board_ >= 0) ::close(board_);
  }
  void start_tactiled(const std::string& pgn = "", const std::vector<std::string>& more = {}) {
    std::vector<std::string> args{
        "--board",        "script", "--script",   fifo_,
        "--control",      ctl_,     "--speech",   speech_,
        "--log",          log_,     "--pgn",      pgn.empty() ? dir_ + "/game.pgn" : pgn,
        "--auto-resume",  "off",    "--language", "en",
        "--time-control", "300+2",  "--event",    "Hall test"};
    args.insert(args.end(), more.begin(), more.end());
    tactiled_ = std::make_unique<Process>(kBin + "tactiled", args, dir_ + "/tactiled.out");
    ASSERT_TRUE(until([&] { return status().is_object(); })) << slurp(dir_ + "/tactiled.out");
    board_ = ::open(fifo_.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(board_, 0);
  }
  void start_publisher() {
    publisher_ = std::make_unique<Process>(
        kBin + "tactiled-publish/tactiled-publish",
        std::vector<std::string>{"--config", dir_ + "/publish.conf"}, dir_ + "/publish.out");
  }
  json status() {
    const json s = Client(ctl_).ask({{"command", "status"}});
    return s.is_object() && s.value("ok", false) ? s : json(nullptr);
  }
  void move(const char* from, const char* to) {
    const int before = status()["moves"].get<int>();
    const std::string text =
        std::string("0 A up ") + from + "\n0 A down " + to + "\n0 A button announce\n";
    ASSERT_EQ(::write(board_, text.data(), text.size()), ssize_t(text.size()));
    ASSERT_TRUE(until([&] { return status()["moves"].get<int>() == before + 1; }))
        << from << to << slurp(dir_ + "/tactiled.out");
  }
  // Every log line has reached the subscriber (as a consumer keeps them).
  bool all_arrived(Subscriber& sub) {
    return kept_records(sub.messages(), kRecord) == log_lines(log_);
  }

  // Every record under its game's id: tactiled/<hall>/<table>/record/<game_id>.
  const std::string kRecord = "tactiled/testhall/7/record/";
  // tactilectl COMMAND on this table's control socket: what it prints (stdout and stderr).
  std::string tactilectl(const std::string& command) {
    const std::string cmd = kBin + "tactilectl " + command + " --socket " + ctl_ + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
    return out;
  }

  std::string speech_ = "off";  // tactiled's --speech
  std::string dir_, fifo_, ctl_, log_;
  std::unique_ptr<Broker> broker_;
  std::unique_ptr<Process> tactiled_, publisher_;
  int board_ = -1;
};

TEST_F(PublishTest, TheBrokerGetsExactlyTheLogThroughBrokerAndPublisherRestarts) {
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  start_tactiled();
  start_publisher();
  ASSERT_TRUE(until([&] {
    return last_on(hall.messages(), "tactiled/testhall/7/status") == "online";
  })) << slurp(dir_ + "/publish.out");
  ASSERT_EQ(Client(ctl_).ask({{"command", "start"}})["ok"], true);
  move("e2", "e4");
  move("e7", "e5");
  ASSERT_TRUE(until([&] { return all_arrived(hall); })) << slurp(dir_ + "/publish.out");

  // The broker goes away mid-game; the game goes on; it comes back.
  broker_->stop();
  move("g1", "f3");
  move("b8", "c6");
  broker_->start();
  ASSERT_TRUE(until([&] { return all_arrived(hall); })) << slurp(dir_ + "/publish.out");

  // The publisher is killed mid-game (its last will says offline); moves are made while it
  // is down; started again it sends what the broker had not acknowledged.
  // (Once it has written down what the broker acknowledged: a kill between a PUBACK and
  // that write sends the record again, a duplicate the hall drops by seq.)
  const json last_logged = json::parse(log_lines(log_).back())["seq"];
  ASSERT_TRUE(until([&] {
    const json p = json::parse(slurp(dir_ + "/publish-state/published.json"), nullptr, false);
    return p.is_object() && p["acked"] == last_logged;
  }));
  const std::size_t before_kill = hall.messages().size();
  std::int64_t acked_before_kill = -1;
  for (const Message& m : hall.messages())
    if (m.topic.starts_with(kRecord))
      acked_before_kill =
          std::max(acked_before_kill, json::parse(m.payload)["seq"].get<std::int64_t>());
  publisher_->stop(SIGKILL);
  ASSERT_TRUE(
      until([&] { return last_on(hall.messages(), "tactiled/testhall/7/status") == "offline"; }));
  move("f1", "b5");
  move("a7", "a6");
  start_publisher();
  move("b5", "a4");
  ASSERT_EQ(Client(ctl_).ask({{"command", "result"}, {"result", "1-0"}})["ok"], true);
  ASSERT_TRUE(until([&] { return all_arrived(hall); })) << slurp(dir_ + "/publish.out");
  EXPECT_EQ(last_on(hall.messages(), "tactiled/testhall/7/status"), "online");
  // Started again, it went on after what the broker had acknowledged (kept in its state
  // directory): nothing the hall had is sent again.
  const std::vector<Message> all = hall.messages();
  for (std::size_t i = before_kill; i < all.size(); ++i)
    if (all[i].topic.starts_with(kRecord)) {
      EXPECT_GT(json::parse(all[i].payload)["seq"].get<std::int64_t>(), acked_before_kill);
    }

  // The records: exactly the log's lines, in order, each seq once as a consumer keeps them;
  // none arrived before a lower seq had (a resend only repeats).
  const std::vector<std::string> lines = log_lines(log_);
  EXPECT_EQ(kept_records(hall.messages(), kRecord), lines);
  std::int64_t highest = 0;
  for (const Message& m : hall.messages()) {
    if (!m.topic.starts_with(kRecord)) continue;
    const std::int64_t seq = json::parse(m.payload)["seq"].get<std::int64_t>();
    EXPECT_LE(seq, highest + 1) << "a gap before seq " << seq;
    highest = std::max(highest, seq);
  }

  // The retained topics, as a newcomer gets them (once the last state is published).
  const json s = status();
  const json last_seq = json::parse(lines.back())["seq"];
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return !st.empty() && json::parse(st)["seq"] == last_seq;
  }));
  Subscriber late("test-late", broker_->port(), "tactiled/testhall/#", true);
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(late.messages(), "tactiled/testhall/7/state");
    return !st.empty() && json::parse(st)["seq"] == json::parse(lines.back())["seq"] &&
           !last_on(late.messages(), "tactiled/testhall/7/pgn").empty();
  })) << slurp(dir_ + "/publish.out");
  for (const char* topic : {"state", "pgn", "status"}) {  // each first as the retained one
    const std::string name = std::string("tactiled/testhall/7/") + topic;
    for (const Message& m : late.messages())
      if (m.topic == name) {
        EXPECT_TRUE(m.retain) << name << ": " << m.payload;
        break;
      }
  }
  const json state = json::parse(last_on(late.messages(), "tactiled/testhall/7/state"));
  EXPECT_EQ(state["hall"], "testhall");
  EXPECT_EQ(state["table"], "7");
  EXPECT_EQ(state["moves"], json::array({"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"}));
  EXPECT_EQ(state["last_move"], json({{"san", "Ba4"}, {"uci", "b5a4"}, {"by", "white"}}));
  EXPECT_EQ(state["result"], "1-0");
  EXPECT_EQ(state["turn"], "black");
  EXPECT_EQ(state["fen"], s["fen"]);
  EXPECT_EQ(state["event"], "Hall test");
  EXPECT_EQ(state["log_head"], s["log_head"]);
  EXPECT_EQ(state["running"], "none");
  EXPECT_TRUE(state["read_at"].is_number_integer());
  EXPECT_TRUE(state["white_ms"].is_number_integer());
  EXPECT_EQ(last_on(late.messages(), "tactiled/testhall/7/status"), "online");
  // The PGN as tactilectl log pgn rebuilds it from the log, [%clk] after every move.
  const std::string pgn_file = dir_ + "/rebuilt.pgn";
  ASSERT_EQ(std::system((kBin + "tactilectl log pgn " + log_ + " > " + pgn_file).c_str()), 0);
  const std::string pgn = last_on(late.messages(), "tactiled/testhall/7/pgn");
  EXPECT_EQ(pgn, slurp(pgn_file));
  EXPECT_NE(pgn.find("[%clk"), std::string::npos);
  EXPECT_NE(pgn.find("4. Ba4"), std::string::npos);
}

// libmosquitto's thread reconnects only a connection it once had: a publisher started while
// the broker is away (a Pi booted before the hall's server) must go on asking.
TEST_F(PublishTest, APublisherStartedBeforeTheBrokerConnectsWhenItComes) {
  broker_->stop();
  start_tactiled();
  start_publisher();
  move("e2", "e4");
  // Long enough for the publisher's first attempt to be refused (it is made at its start).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  broker_->start();
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  // The retained status and state, published once the publisher is connected.
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return last_on(hall.messages(), "tactiled/testhall/7/status") == "online" && !st.empty() &&
           json::parse(st)["moves"] == json::array({"e4"});
  })) << slurp(dir_ + "/publish.out");
}

// What tactiled reports as wrong with the unit (its status "faults") is the alarm "fault"
// while it lasts: here a PGN that cannot be written (its directory gone).
TEST_F(PublishTest, AFaultIsAnAlarmWhileItLasts) {
  const std::string records = dir_ + "/records";
  std::filesystem::create_directories(records);
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  start_tactiled(records + "/game.pgn");
  start_publisher();
  const auto alarms = [&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return st.empty() ? json(nullptr) : json::parse(st)["alarms"];
  };
  move("e2", "e4");
  ASSERT_TRUE(until([&] { return alarms() == json::array(); })) << slurp(dir_ + "/publish.out");
  std::filesystem::remove_all(records);
  move("e7", "e5");
  ASSERT_TRUE(until([&] { return alarms() == json::array({"fault"}); })) << alarms() << status();
  EXPECT_EQ(status()["faults"].size(), 1u);
  std::filesystem::create_directories(records);
  move("g1", "f3");
  ASSERT_TRUE(until([&] { return alarms() == json::array(); })) << alarms() << status();
  EXPECT_EQ(status()["faults"], json::array());
}

// A voice that cannot be heard: the English voice's data removed from a copy of
// espeak-ng's data (ESPEAK_DATA_PATH), as a broken install leaves it. espeak-ng then
// synthesises silence (it says "Can't read dictionary file" once, on stderr); tactiled
// names the fault from the start, in the status (JSON and text), the log and the hall's
// state, and tactilectl start warns of it while it starts the clocks. Its speech device
// is a file PCM (ALSA's own plugin, no sound card): nothing is played into it.
TEST_F(PublishTest, AVoiceThatCannotBeHeardIsAFaultEverywhere) {
  const std::string data = dir_ + "/espeak/espeak-ng-data";
  std::string system_data;
  {
    FILE* p = ::popen("espeak-ng --version", "r");
    char buf[512];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) system_data.append(buf, n);
    ::pclose(p);
    const std::size_t at = system_data.find("Data at: ");
    ASSERT_NE(at, std::string::npos) << system_data;
    system_data = system_data.substr(at + 9);
    system_data = system_data.substr(0, system_data.find_first_of("\r\n"));
  }
  std::filesystem::create_directories(data);
  std::filesystem::copy(system_data, data, std::filesystem::copy_options::recursive);
  ASSERT_TRUE(std::filesystem::remove(data + "/en_dict"));
  std::ofstream(dir_ + "/asound.conf")
      << "pcm.board_a { type file slave.pcm \"silent\" file \"" << dir_
      << "/a.raw\" format \"raw\" }\npcm.silent { type null }\n";
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  speech_ = "on";
  ::setenv("ESPEAK_DATA_PATH", (dir_ + "/espeak").c_str(), 1);
  ::setenv("ALSA_CONFIG_PATH", (dir_ + "/asound.conf").c_str(), 1);
  start_tactiled("", {"--speech-device", "board_a"});
  ::unsetenv("ESPEAK_DATA_PATH");
  ::unsetenv("ALSA_CONFIG_PATH");
  start_publisher();
  const std::string kFault =
      "speech-device: espeak-ng voice 'en-us+klatt2' gives silence (is its data missing from "
      "espeak-ng-data?)";
  // Named before the clocks start, and the arbiter warned as he starts them.
  ASSERT_EQ(status()["faults"], json::array({kFault})) << status();
  const std::string started = tactilectl("start");
  EXPECT_NE(started.find("start: done"), std::string::npos) << started;
  EXPECT_NE(started.find("warning: a fault stands (tactilectl status):\nfault      " + kFault),
            std::string::npos)
      << started;
  move("e2", "e4");  // the game goes on: "Pawn Eva four" is lost as well
  EXPECT_EQ(status()["faults"], json::array({kFault})) << status();
  const std::string text = tactilectl("status");
  EXPECT_EQ(text.rfind("fault      " + kFault + "\n", 0), 0u) << text;
  // In the log, once.
  int logged = 0;
  for (const std::string& line : log_lines(log_)) {
    const json j = json::parse(line);
    if (j.value("type", "") != "fault") continue;
    ++logged;
    EXPECT_EQ(j.value("fault", ""), kFault) << line;
  }
  EXPECT_EQ(logged, 1);
  // The hall's page: the table's state has the alarm.
  const auto alarms = [&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return st.empty() ? json(nullptr) : json::parse(st)["alarms"];
  };
  ASSERT_TRUE(until([&] { return alarms() == json::array({"fault"}); }))
      << alarms() << slurp(dir_ + "/publish.out");
  // Nothing was played: silence is not sent to the device as if it were speech.
  std::error_code ec;
  EXPECT_EQ(std::filesystem::file_size(dir_ + "/a.raw", ec), ec ? std::uintmax_t(-1) : 0u);
}

// A speech device that does not exist (a wrong name in the settings): plain tactilectl
// status names it, and the hall shows the fault.
TEST_F(PublishTest, ASpeechDeviceThatDoesNotExistIsInThePlainStatus) {
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  speech_ = "on";
  start_tactiled("", {"--speech-device", "no_such_device"});
  start_publisher();
  const std::string text = tactilectl("status");
  EXPECT_NE(text.find("fault      speech-device: cannot open ALSA device 'no_such_device'"),
            std::string::npos)
      << text;
  const std::string started = tactilectl("start");
  EXPECT_NE(started.find("warning: a fault stands"), std::string::npos) << started;
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return !st.empty() && json::parse(st)["alarms"] == json::array({"fault"});
  })) << slurp(dir_ + "/publish.out");
}

// The board's health in the table's state: a failed self-test (the last one in the
// self-test log of tactiled's state directory) and a hole gone suspect are alarms, and
// the health is carried as tactiled reports it.
TEST_F(PublishTest, ASuspectBoardAndAFailedSelfTestAreAlarms) {
  const std::string state = dir_ + "/tactiled-state";
  std::filesystem::create_directories(state);
  std::ofstream(state + "/self-test.jsonl")
      << R"({"type":"self-test","time":"2026-11-25T08:00:00Z","board":"A","passed":true,"failed":[]})"
      << "\n"
      << R"({"type":"self-test","time":"2026-11-25T08:10:03Z","board":"A","passed":false,"failed":["g6"]})"
      << "\n";
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  ::setenv("STATE_DIRECTORY", state.c_str(), 1);  // tactiled's, inherited
  start_tactiled("", {"--health-suspect-ms", "1000"});
  ::unsetenv("STATE_DIRECTORY");
  start_publisher();
  const auto last_state = [&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return st.empty() ? json(nullptr) : json::parse(st);
  };
  ASSERT_EQ(Client(ctl_).ask({{"command", "start"}})["ok"], true);
  move("e2", "e4");
  ASSERT_TRUE(until([&] {
    return last_state().is_object() && last_state()["alarms"] == json::array({"self-test-failed"});
  })) << last_state()
      << status();
  EXPECT_EQ(last_state()["health"]["A"]["self_test"],
            json({{"passed", false}, {"time", "2026-11-25T08:10:03Z"}, {"failed", {"g6"}}}));
  EXPECT_EQ(last_state()["health"]["A"]["suspect"], json::array());
  // The switch under a1 dies while Black thinks.
  ASSERT_EQ(::write(board_, "0 A up a1\n", 10), 10);
  ASSERT_TRUE(until([&] {
    return last_state()["alarms"] == json::array({"board-suspect", "self-test-failed"});
  })) << last_state()
      << status();
  EXPECT_EQ(last_state()["health"]["A"]["suspect"], json::array({"a1"}));
  // tactiled stops answering (killed): the last state again, with daemon-stopped and the
  // time of its last answer.
  const std::int64_t before_kill = std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count();
  tactiled_->stop(SIGKILL);
  ASSERT_TRUE(until([&] {
    const json a = last_state()["alarms"];
    return std::find(a.begin(), a.end(), "daemon-stopped") != a.end();
  })) << last_state();
  EXPECT_EQ(last_state()["alarms"],
            json::array({"board-suspect", "self-test-failed", "daemon-stopped"}));
  EXPECT_NEAR(double(last_state()["daemon_last_seen"].get<std::int64_t>()), double(before_kill),
              1000.0);
  EXPECT_EQ(last_state()["moves"], json::array({"e4"}));
}

TEST_F(PublishTest, ANewGameIsFollowed) {
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  start_tactiled();
  start_publisher();
  move("e2", "e4");
  // (A publisher's first start takes tactiled's game as it finds it.)
  ASSERT_TRUE(until([&] { return all_arrived(hall); })) << slurp(dir_ + "/publish.out");
  const std::vector<std::string> first = log_lines(log_);
  const json answer = Client(ctl_).ask({{"command", "new-game"}, {"white", "Anna"}});
  ASSERT_EQ(answer["ok"], true) << answer;
  const std::string second_log = answer["log"].get<std::string>();
  ASSERT_NE(second_log, log_);
  move("d2", "d4");
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return !st.empty() && json::parse(st)["moves"] == json::array({"d4"});
  })) << slurp(dir_ + "/publish.out");
  // Both games' records, the first game's whole log (its closed record too) before the
  // second's.
  std::vector<std::string> all = log_lines(log_);
  const std::vector<std::string> second = log_lines(second_log);
  ASSERT_TRUE(until([&] {
    std::vector<std::string> got;
    for (const Message& m : hall.messages())
      if (m.topic.starts_with(kRecord)) got.push_back(m.payload);
    std::vector<std::string> want = log_lines(log_);
    const std::vector<std::string> more = log_lines(second_log);
    want.insert(want.end(), more.begin(), more.end());
    return got == want;
  })) << slurp(dir_ + "/publish.out");
  EXPECT_GT(all.size(), first.size());  // the closed record
  EXPECT_EQ(json::parse(last_on(hall.messages(), "tactiled/testhall/7/state"))["white"], "Anna");
  // tactiled's status says whether the board trains (docs/engine.md): a tournament game.
  EXPECT_EQ(json::parse(last_on(hall.messages(), "tactiled/testhall/7/state"))["training"], false);
  // Each game's records under its own game id, the start record's: 128 random bits.
  const std::string id1 = json::parse(all.front())["game_id"];
  const std::string id2 = json::parse(second.front())["game_id"];
  EXPECT_EQ(id1.size(), 32u);
  EXPECT_EQ(id2.size(), 32u);
  EXPECT_NE(id1, id2);
  EXPECT_EQ(kept_records(hall.messages(), kRecord + id1), all);
  EXPECT_EQ(kept_records(hall.messages(), kRecord + id2), second);
  EXPECT_EQ(json::parse(last_on(hall.messages(), "tactiled/testhall/7/state"))["game_id"], id2);
}

// The hall asks for records it lacks on the table's resend topic (docs/hall.md, "Nothing
// lost"): the publisher sends them again from that game's log, an earlier game's too, and
// its state names the round's other games with their last seq. A request for a game it
// never sent, or one that is not a request, brings nothing.
TEST_F(PublishTest, TheHallsResendRequestIsAnsweredFromTheGamesLog) {
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  start_tactiled();
  start_publisher();
  move("e2", "e4");
  move("e7", "e5");
  ASSERT_TRUE(until([&] { return all_arrived(hall); })) << slurp(dir_ + "/publish.out");
  const json answer = Client(ctl_).ask({{"command", "new-game"}, {"white", "Anna"}});
  ASSERT_EQ(answer["ok"], true) << answer;
  const std::string second_log = answer["log"].get<std::string>();
  move("d2", "d4");
  const std::vector<std::string> first = log_lines(log_);
  const std::string id1 = json::parse(first.front())["game_id"];
  const std::string id2 = json::parse(log_lines(second_log).front())["game_id"];
  // The state names the first game and its last record.
  ASSERT_TRUE(until([&] {
    const std::string st = last_on(hall.messages(), "tactiled/testhall/7/state");
    return !st.empty() && json::parse(st)["game_id"] == id2 &&
           json::parse(st)["games"] ==
               json::array({{{"game_id", id1}, {"seq", std::int64_t(first.size()) - 1}}});
  })) << last_on(hall.messages(), "tactiled/testhall/7/state");
  auto count = [&](const std::string& topic) {
    std::map<std::string, int> n;
    for (const Message& m : hall.messages())
      if (m.topic == topic) ++n[m.payload];
    return n;
  };
  const std::map<std::string, int> before = count(kRecord + id1);
  auto ask = [&](const std::string& payload) {
    const std::string command = "mosquitto_pub -h 127.0.0.1 -p " + std::to_string(broker_->port()) +
                                " -q 1 -t tactiled/testhall/7/resend -m '" + payload + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
  };
  ask("{\"game_id\":\"" + std::string(32, 'a') + "\",\"from\":0,\"to\":5}");  // not its game
  ask("{\"game_id\":\"" + id1 + "\",\"from\":\"3\",\"to\":5}");               // a bad type
  ask("{\"game_id\":\"" + id1 + "\",\"from\":3,\"to\":7}");
  // Records 3..7 of the first game once more, nothing else.
  ASSERT_TRUE(until([&] {
    const std::map<std::string, int> now = count(kRecord + id1);
    for (std::size_t seq = 3; seq <= 7; ++seq)
      if (now.at(first[seq]) != before.at(first[seq]) + 1) return false;
    return true;
  })) << slurp(dir_ + "/publish.out");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // anything more would be here
  const std::map<std::string, int> after = count(kRecord + id1);
  for (std::size_t seq = 0; seq < first.size(); ++seq)
    EXPECT_EQ(after.at(first[seq]), before.at(first[seq]) + (seq >= 3 && seq <= 7 ? 1 : 0)) << seq;
  for (const Message& m : hall.messages())
    EXPECT_FALSE(m.topic.find(std::string(32, 'a')) != std::string::npos) << m.topic;
}

// The table is offline when tactiled stops answering its control socket (a crash, a hang),
// though its publisher runs on: the hall must not show a dead table's clock running.
TEST_F(PublishTest, ATactiledThatStopsAnsweringMakesTheTableOffline) {
  Subscriber hall("test-hall", broker_->port(), "tactiled/testhall/#");
  ASSERT_TRUE(until([&] { return hall.subscribed(); }));
  start_tactiled();
  start_publisher();
  const std::string kStatus = "tactiled/testhall/7/status";
  ASSERT_TRUE(until([&] { return last_on(hall.messages(), kStatus) == "online"; }));
  tactiled_->stop(SIGKILL);
  ASSERT_TRUE(until([&] { return last_on(hall.messages(), kStatus) == "offline"; }))
      << slurp(dir_ + "/publish.out");
  EXPECT_TRUE(publisher_->running());
}

TEST(PublishSettings, ABadSettingIsAClearErrorWithStatus2) {
  const std::string cmd =
      kBin + "tactiled-publish/tactiled-publish --config /dev/null --hall 'a/b' --table 1 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::string out;
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int w = ::pclose(p);
  EXPECT_EQ(WEXITSTATUS(w), 2);
  EXPECT_EQ(out, "tactiled-publish: hall: 'a/b' is not a name of letters, digits, - and _\n");
}

}  // namespace
}  // namespace tactile::hall::test
