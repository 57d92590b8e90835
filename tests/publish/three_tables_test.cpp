// SPDX-License-Identifier: GPL-3.0-or-later
// The hall end to end: a real mosquitto, three tactiled on script boards with their
// publishers, and tactiled-hall; three whole games end with live.pgn holding exactly each
// game's own PGN (compared with the PGN file each tactiled writes), through a broker
// restart and a publisher cut off and started again in the middle.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/chess/pgn.h"
#include "core/chess/uci.h"
#include "tests/daemon/control_client.h"
#include "tests/publish/mqtt_support.h"
#include "tests/support/slurp.h"

namespace tactile::hall::test {
namespace {
using json = nlohmann::json;
using Client = daemon::test::ControlClient;
using tactile::test::slurp;

const std::string kBin = std::string(TACTILED_BINARY_DIR) + "/daemon/";

// One table: tactiled on a script board (a FIFO), and its publisher.
struct Table {
  Table(const std::string& root, int number, int port) : name(std::to_string(number)) {
    dir = root + "/table-" + name;
    std::filesystem::create_directories(dir + "/publish-state");
    ::mkfifo((dir + "/board.fifo").c_str(), 0600);
    ctl = dir + "/ctl";
    tactiled = std::make_unique<Process>(
        kBin + "tactiled", std::vector<std::string>{"--board",        "script",
                                                    "--script",       dir + "/board.fifo",
                                                    "--control",      ctl,
                                                    "--speech",       "off",
                                                    "--log",          dir + "/game.jsonl",
                                                    "--pgn",          dir + "/game.pgn",
                                                    "--auto-resume",  "off",
                                                    "--language",     "en",
                                                    "--time-control", "300+2",
                                                    "--event",        "Three tables"},
        dir + "/tactiled.out");
    std::ofstream conf(dir + "/publish.conf");
    conf << "broker-host = 127.0.0.1\nbroker-port = " << port << "\nhall = three\ntable = " << name
         << "\ncontrol = " << ctl << "\nstate-directory = " << dir << "/publish-state\n";
  }
  bool ready() {
    if (!status().is_object()) return false;
    board = ::open((dir + "/board.fifo").c_str(), O_WRONLY | O_CLOEXEC);
    return board >= 0;
  }
  ~Table() {
    if (board >= 0) ::close(board);
  }
  void start_publisher() {
    publisher = std::make_unique<Process>(
        kBin + "tactiled-publish/tactiled-publish",
        std::vector<std::string>{"--config", dir + "/publish.conf"}, dir + "/publish.out");
  }
  json status() {
    const json s = Client(ctl).ask({{"command", "status"}});
    return s.is_object() && s.value("ok", false) ? s : json(nullptr);
  }
  bool move(const std::string& uci) {
    const int before = status()["moves"].get<int>();
    const std::string text =
        "0 A up " + uci.substr(0, 2) + "\n0 A down " + uci.substr(2, 2) + "\n0 A button announce\n";
    if (::write(board, text.data(), text.size()) != ssize_t(text.size())) return false;
    return until([&] { return status()["moves"].get<int>() == before + 1; });
  }

  std::string name, dir, ctl;
  std::unique_ptr<Process> tactiled, publisher;
  int board = -1;
};

// A game's moves with their comments ([%clk]) and its result: what live.pgn must hold of it.
std::string movetext(const chess::PgnGame& g) {
  std::string text;
  chess::Position pos = g.start;
  for (const chess::PgnMove& m : g.moves) {
    text += chess::to_uci(pos, m.move) + " {" + m.comment + "} ";
    pos.play(m.move);
  }
  return text + g.result;
}

TEST(ThreeTables, LivePgnHoldsEachGameThroughABrokerRestartAndAPublisherCutOff) {
  const std::string root =
      std::string(TACTILED_BINARY_DIR) + "/tests/publish/three-" + std::to_string(getpid());
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/broker");
  std::filesystem::create_directories(root + "/hall");
  Broker broker(root + "/broker");
  broker.start();
  std::ofstream(root + "/hall.conf")
      << "hall = three\nbroker-host = 127.0.0.1\nbroker-port = " << broker.port()
      << "\noutput-dir = " << root << "/hall\nhttp-port = 0\n";
  Process hall(kBin + "tactiled-hall/tactiled-hall", {"--config", root + "/hall.conf"},
               root + "/hall.out");
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 1; i <= 3; ++i) tables.push_back(std::make_unique<Table>(root, i, broker.port()));
  for (auto& t : tables) {
    ASSERT_TRUE(until([&] { return t->ready(); })) << slurp(t->dir + "/tactiled.out");
    t->start_publisher();
    ASSERT_EQ(Client(t->ctl).ask({{"command", "start"}})["ok"], true);
  }
  const std::vector<std::vector<std::string>> games = {
      {"f2f3", "e7e5", "g2g4", "d8h4"},                  // fool's mate: 0-1
      {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"},  // a draw agreed
      {"d2d4", "d7d5", "c2c4", "e7e6", "b1c3"}};         // White resigns: 0-1
  auto play = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t m = from; m < std::min(to, games[i].size()); ++m)
        ASSERT_TRUE(tables[i]->move(games[i][m])) << "table " << i + 1 << " " << games[i][m];
  };
  play(0, 2);
  broker.stop();  // the broker goes away mid-round and comes back
  play(2, 3);
  broker.start();
  tables[1]->publisher->stop(SIGKILL);  // table 2's publisher cut off
  play(3, 5);
  tables[1]->start_publisher();
  play(5, 6);
  ASSERT_EQ(Client(tables[1]->ctl).ask({{"command", "result"}, {"result", "1/2-1/2"}})["ok"], true);
  ASSERT_EQ(Client(tables[2]->ctl).ask({{"command", "result"}, {"result", "0-1"}})["ok"], true);

  // Each table's own PGN (tactiled's file) against the hall's live.pgn, game by board.
  std::vector<std::string> want;
  for (auto& t : tables)
    want.push_back(movetext(chess::read_pgn(slurp(t->dir + "/game.pgn")).at(0)));
  EXPECT_EQ(want[0].substr(want[0].size() - 3), "0-1");
  auto live = [&] {
    std::vector<std::string> got;
    try {
      for (const chess::PgnGame& g : chess::read_pgn(slurp(root + "/hall/live.pgn")))
        got.push_back(movetext(g));
    } catch (const std::exception&) {
    }
    return got;
  };
  EXPECT_TRUE(until([&] { return live() == want; })) << ::testing::PrintToString(live()) << "\n"
                                                     << ::testing::PrintToString(want) << "\n"
                                                     << slurp(root + "/hall.out");
  const std::vector<chess::PgnGame> got = chess::read_pgn(slurp(root + "/hall/live.pgn"));
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(got[i].tag("Board"), std::to_string(i + 1));
    EXPECT_NE(got[i].moves.at(0).comment.find("[%clk"), std::string::npos);
  }
}

// A PGN file as an independent reader has it: pgn-extract (Debian's, a C program of its
// own) checks every move's legality and writes the games back with long-algebraic moves.
// Empty when it reports an error.
std::string independent_read(const std::string& path) {
  const std::string cmd = "/usr/games/pgn-extract -s -Wlalg --nocomments '" + path + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  return ::pclose(p) == 0 ? out : "";
}

// One table through a hall's life: the config's game, then a second and a third game
// (new-game, with the arbiter's names, event and round). The hall keeps each game apart by
// its game id, in a file of its own with the tags its log recorded, and live.pgn has the
// table's current game with its names, Event, the hall's Site, Date, Round and Board.
TEST(ThreeTables, ThreeGamesAtOneTableAreEachKeptWithTheirTags) {
  const std::string root =
      std::string(TACTILED_BINARY_DIR) + "/tests/publish/games-" + std::to_string(getpid());
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/broker");
  std::filesystem::create_directories(root + "/hall");
  Broker broker(root + "/broker");
  broker.start();
  std::ofstream(root + "/hall.conf")
      << "hall = three\nbroker-host = 127.0.0.1\nbroker-port = " << broker.port()
      << "\noutput-dir = " << root << "/hall\nhttp-port = 0\nsite = Town Hall\n";
  Process hall(kBin + "tactiled-hall/tactiled-hall", {"--config", root + "/hall.conf"},
               root + "/hall.out");
  // The hall on the broker before the table publishes (records are not retained): a
  // retained message on a topic the hall drops (and counts) shows it has subscribed.
  ASSERT_EQ(std::system(("mosquitto_pub -h 127.0.0.1 -p " + std::to_string(broker.port()) +
                         " -r -q 1 -t tactiled/three/probe -m x")
                            .c_str()),
            0);
  ASSERT_TRUE(until([&] {
    const json index = json::parse(slurp(root + "/hall/round.json"), nullptr, false);
    return index.is_object() && index["dropped"].value("bad-topic", 0) > 0;
  })) << slurp(root + "/hall.out");
  Table table(root, 1, broker.port());
  ASSERT_TRUE(until([&] { return table.ready(); })) << slurp(table.dir + "/tactiled.out");
  table.start_publisher();
  // A publisher's very first start takes the game tactiled has then: the first game's
  // records are in the hall before the arbiter moves on to the next.
  ASSERT_TRUE(until([&] {
    const json index = json::parse(slurp(root + "/hall/round.json"), nullptr, false);
    return index.is_object() && index["tables"].size() == 1 && index["tables"][0]["records"] > 0;
  })) << slurp(root + "/hall.out");
  struct Played {
    std::string white, black, event, round, pgn;
  };
  std::vector<Played> played;
  std::vector<std::vector<std::string>> moves_of;
  auto play = [&](const std::vector<std::string>& moves) {
    moves_of.push_back(moves);
    ASSERT_EQ(Client(table.ctl).ask({{"command", "start"}})["ok"], true);
    for (const std::string& m : moves) ASSERT_TRUE(table.move(m)) << m;
    played.back().pgn = table.status()["pgn"];
  };
  played.push_back({"?", "?", "Three tables", "?", ""});
  play({"e2e4", "e7e5"});
  for (const auto& [white, black, round] :
       {std::tuple{"Anna Weiss", "Boris Schwarz", "2"}, std::tuple{"Clara", "Dora", "3"}}) {
    const json answer = Client(table.ctl).ask({{"command", "new-game"},
                                               {"white", white},
                                               {"black", black},
                                               {"event", "Club Open"},
                                               {"round", round}});
    ASSERT_EQ(answer["ok"], true) << answer;
    played.push_back({white, black, "Club Open", round, ""});
    play(round == std::string("2") ? std::vector<std::string>{"d2d4", "d7d5", "c2c4"}
                                   : std::vector<std::string>{"c2c4"});
  }

  // round.json: the table's three games, each with its id and file.
  json entry;
  ASSERT_TRUE(until([&] {
    const json index = json::parse(slurp(root + "/hall/round.json"), nullptr, false);
    if (!index.is_object() || index["tables"].size() != 1) return false;
    entry = index["tables"][0];
    return entry["games"].size() == 3 && entry["games"][2]["moves"] == 1;
  })) << slurp(root + "/hall/round.json")
      << slurp(root + "/hall.out");
  const std::string today = [] {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[16];
    std::strftime(text, sizeof text, "%Y.%m.%d", &utc);
    return std::string(text);
  }();
  std::set<std::string> ids;
  for (std::size_t i = 0; i < 3; ++i) {
    const json& g = entry["games"][i];
    ids.insert(g["game_id"].get<std::string>());
    EXPECT_EQ(g["file"], "table-1-" + g["game_id"].get<std::string>() + ".pgn");
    // The game's own file: tactiled's PGN of that game, moves and tags, with the hall's.
    const chess::PgnGame kept =
        chess::read_pgn(slurp(root + "/hall/" + g["file"].get<std::string>())).at(0);
    const chess::PgnGame own = chess::read_pgn(slurp(played[i].pgn)).at(0);
    EXPECT_EQ(movetext(kept), movetext(own)) << i;
    EXPECT_EQ(kept.tag("White"), played[i].white) << i;
    EXPECT_EQ(kept.tag("Black"), played[i].black) << i;
    EXPECT_EQ(kept.tag("Event"), played[i].event) << i;
    EXPECT_EQ(kept.tag("Round"), played[i].round) << i;
    EXPECT_EQ(kept.tag("Site"), "Town Hall") << i;
    EXPECT_EQ(kept.tag("Date"), today) << i;
    EXPECT_EQ(kept.tag("Board"), "1") << i;
    EXPECT_EQ(kept.tag("GameId"), g["game_id"]) << i;
    // And as the independent reader has it: every move legal, the same moves.
    const std::string read = independent_read(root + "/hall/" + g["file"].get<std::string>());
    std::string lalg;
    for (std::size_t m = 0; m < moves_of[i].size(); ++m)
      lalg += (m % 2 ? "" : std::to_string(m / 2 + 1) + ". ") + moves_of[i][m] + " ";
    EXPECT_NE(read.find(lalg + "*"), std::string::npos) << i << "\n" << read;
    EXPECT_NE(read.find("[White \"" + played[i].white + "\"]"), std::string::npos) << read;
  }
  EXPECT_EQ(ids.size(), 3u);
  // live.pgn: the table's current game, the third, with every tag the arbiter recorded.
  const std::vector<chess::PgnGame> live = chess::read_pgn(slurp(root + "/hall/live.pgn"));
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].tag("White"), "Clara");
  EXPECT_EQ(live[0].tag("Black"), "Dora");
  EXPECT_EQ(live[0].tag("Event"), "Club Open");
  EXPECT_EQ(live[0].tag("Site"), "Town Hall");
  EXPECT_EQ(live[0].tag("Date"), today);
  EXPECT_EQ(live[0].tag("Round"), "3");
  EXPECT_EQ(live[0].tag("Board"), "1");
  EXPECT_EQ(live[0].moves.size(), 1u);
  const std::string read = independent_read(root + "/hall/live.pgn");
  for (const std::string& tag : std::vector<std::string>{
           "[White \"Clara\"]", "[Black \"Dora\"]", "[Event \"Club Open\"]", "[Site \"Town Hall\"]",
           "[Date \"" + today + "\"]", "[Round \"3\"]", "[Board \"1\"]", "1. c2c4 *"})
    EXPECT_NE(read.find(tag), std::string::npos) << tag << "\n" << read;
}

}  // namespace
}  // namespace tactile::hall::test
