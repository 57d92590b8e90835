// SPDX-License-Identifier: GPL-3.0-or-later
// The rules of the hall's pushes to lichess, with time passed in (lichess_push.h): one
// request at a time, a second between starts, a minute after a 429, a back-off after other
// failures; what lichess's answers mean; the games as lichess takes them; hall.conf's keys.
#include <gtest/gtest.h>

#include <boost/program_options.hpp>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "daemon/tactiled-hall/hall_config.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/lichess_games.h"
#include "daemon/tactiled-hall/lichess_push.h"
#include "daemon/tactiled-hall/lichess_pusher.h"
#include "tests/support/slurp.h"

namespace tactile::hall {
namespace {

using Clock = PushSchedule::Clock;
using std::chrono::milliseconds;

TEST(LichessSchedule, OneRequestAtATimeAndASecondBetweenStarts) {
  PushSchedule s;
  const Clock::time_point t0{};
  ASSERT_TRUE(s.may_start(t0));
  s.started(t0);
  EXPECT_FALSE(s.may_start(t0 + milliseconds(5000)));  // still in flight
  s.finished(PushSchedule::Outcome::kAnswered, t0 + milliseconds(300));
  EXPECT_FALSE(s.may_start(t0 + milliseconds(999)));
  EXPECT_TRUE(s.may_start(t0 + milliseconds(1000)));
  EXPECT_EQ(s.earliest(), t0 + milliseconds(1000));
  // A slow answer: the next may start as soon as it came, a second after the start.
  s.started(t0 + milliseconds(1000));
  s.finished(PushSchedule::Outcome::kAnswered, t0 + milliseconds(4000));
  EXPECT_TRUE(s.may_start(t0 + milliseconds(4000)));
}

TEST(LichessSchedule, NothingForAMinuteAfterA429) {
  PushSchedule s;
  const Clock::time_point t0{};
  s.started(t0);
  s.finished(PushSchedule::Outcome::kTooMany, t0 + milliseconds(200));
  EXPECT_FALSE(s.may_start(t0 + milliseconds(60199)));
  EXPECT_TRUE(s.may_start(t0 + milliseconds(60200)));
}

TEST(LichessSchedule, OtherFailuresBackOffDoublingAndASuccessResets) {
  PushSchedule s;
  Clock::time_point now{};
  std::vector<long> waits;
  for (int i = 0; i < 8; ++i) {
    s.started(now);
    s.finished(PushSchedule::Outcome::kFailed, now);
    waits.push_back(std::chrono::duration_cast<milliseconds>(s.earliest() - now).count());
    now = s.earliest();
  }
  EXPECT_EQ(waits, (std::vector<long>{2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000}));
  s.started(now);
  s.finished(PushSchedule::Outcome::kAnswered, now);
  EXPECT_EQ(s.back_off().count(), 0);
  EXPECT_EQ(s.earliest(), now + milliseconds(1000));
}

PushAnswer answer(int status, std::string body) {
  PushAnswer a;
  a.sent.round_id = "abcd1234";
  a.sent.tables = {"t1", "t2"};
  a.status = status;
  a.body = std::move(body);
  return a;
}

TEST(LichessAnswers, EachGamesMovesOrErrorByTable) {
  const PushVerdict v = judge(answer(
      200,
      R"({"games":[{"tags":{"Board":"1"},"moves":12},{"tags":{"Board":"2"},"error":"Illegal move 7. Ke9"}]})"));
  EXPECT_EQ(v.outcome, PushSchedule::Outcome::kAnswered);
  ASSERT_EQ(v.games.size(), 2u);
  EXPECT_EQ(v.games[0].first, "t1");
  EXPECT_EQ(v.games[0].second, (nlohmann::json{{"moves", 12}}));
  EXPECT_EQ(v.games[1].second, (nlohmann::json{{"error", "Illegal move 7. Ke9"}}));
  EXPECT_TRUE(v.alarm.empty());
}

TEST(LichessAnswers, RefusalsAreAlarmsInLichesssWords429AndFailuresAreNot) {
  PushVerdict v = judge(answer(401, R"({"error":"No such token"})"));
  EXPECT_EQ(v.outcome, PushSchedule::Outcome::kFailed);
  EXPECT_NE(v.alarm.find("No such token"), std::string::npos) << v.alarm;
  v = judge(answer(400, R"({"error":"This round has a source URL"})"));
  EXPECT_NE(v.alarm.find("This round has a source URL"), std::string::npos);
  v = judge(answer(404, "Not found\n\x1b[31m"));
  EXPECT_NE(v.alarm.find("Not found ?[31m"), std::string::npos) << v.alarm;
  v = judge(answer(429, ""));
  EXPECT_EQ(v.outcome, PushSchedule::Outcome::kTooMany);
  EXPECT_TRUE(v.alarm.empty());
  PushAnswer none = answer(0, "");
  none.failure = "Connection refused";
  v = judge(none);
  EXPECT_EQ(v.outcome, PushSchedule::Outcome::kFailed);
  EXPECT_NE(v.trouble.find("Connection refused"), std::string::npos);
  v = judge(answer(200, "<html>a portal</html>"));
  EXPECT_EQ(v.outcome, PushSchedule::Outcome::kFailed);
}

// A lichess that answers only when the test lets it: what each request carried, and how
// many were on their way at once.
struct HeldLichess {
  void post(const std::string& url, const std::string& token, PushAnswer& answer,
            const std::atomic<bool>& cancelled) {
    std::unique_lock lock(mutex);
    urls.push_back(url);
    tokens.push_back(token);
    bodies.push_back(answer.sent.pgn);
    ++on_the_way;
    most = std::max(most, on_the_way);
    changed.notify_all();
    // `cancelled` is looked at every few ms, as libcurl's progress callback does.
    while (!changed.wait_for(lock, milliseconds(5), [&] { return released > 0 || cancelled; })) {
    }
    if (released > 0) --released;
    --on_the_way;
    answer.status = 200;
    answer.body = R"({"games":[{"tags":{},"moves":1}]})";
  }
  // Waits until `n` requests came.
  void wait_for(std::size_t n) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return bodies.size() >= n; });
  }
  void release() {
    std::lock_guard lock(mutex);
    ++released;
    changed.notify_all();
  }
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> urls, tokens, bodies;
  int on_the_way = 0, most = 0, released = 0;
};

// The pusher's transport, which it owns: to the test's lichess, which outlives it.
class HeldTransport : public PushTransport {
 public:
  explicit HeldTransport(HeldLichess& lichess) : lichess_(lichess) {}
  void post(const std::string& url, const std::string& token, PushAnswer& answer,
            const std::atomic<bool>& cancelled) override {
    lichess_.post(url, token, answer, cancelled);
  }

 private:
  HeldLichess& lichess_;
};

PushBody body(const std::string& pgn) {
  return PushBody{"abcd1234", pgn, {"t1"}};
}

TEST(LichessPusher, ChangesWhileARequestIsOnItsWayMakeOneRequestOfTheLatest) {
  HeldLichess lichess;
  {
    LichessPusher pusher("http://lichess.test", "lip_x", std::make_unique<HeldTransport>(lichess));
    pusher.offer({body("one")});
    lichess.wait_for(1);
    // The round changes three times while the first request waits for its answer.
    pusher.offer({body("two")});
    pusher.offer({body("three")});
    pusher.offer({body("four")});
    lichess.release();
    lichess.wait_for(2);
    lichess.release();
    // The same round again: nothing to push. Then answers are read by the hall.
    pusher.offer({body("four")});
    const auto began = Clock::now();
    while (pusher.take_answers().empty() && Clock::now() - began < std::chrono::seconds(20))
      std::this_thread::sleep_for(milliseconds(10));
  }
  EXPECT_EQ(lichess.bodies, (std::vector<std::string>{"one", "four"}));
  EXPECT_EQ(lichess.most, 1);
  EXPECT_EQ(lichess.urls[0], "http://lichess.test/api/broadcast/round/abcd1234/push");
  EXPECT_EQ(lichess.tokens[0], "lip_x");
}

TEST(LichessPusher, AStopCutsARequestOnItsWayOff) {
  HeldLichess lichess;
  std::optional<LichessPusher> pusher;
  pusher.emplace("http://lichess.test", "lip_x", std::make_unique<HeldTransport>(lichess));
  pusher->offer({body("one")});
  lichess.wait_for(1);
  pusher.reset();  // returns: the transport saw `cancelled`
  EXPECT_EQ(lichess.on_the_way, 0);
}

const std::string kLog = std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl";

TEST(LichessGames, NamedTaggedAndSplitAsLilaSplitsThem) {
  HallState hall("open");
  hall.set_round("4");
  std::string text = test::slurp(kLog);
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    hall.receive("tactiled/open/t1/record", text.substr(start, end - start));
    start = end + 1;
  }
  hall.receive("tactiled/open/t2/state", R"({"white_ms":null,"black_ms":null})");
  hall.receive("tactiled/open/t3/state", R"({"white":"?","black":"unknown","training":true})");
  hall.refresh();
  LichessGames games({{"abcd1234", 1, 100}});
  games.update(hall);
  const std::vector<PushBody> bodies = games.bodies();
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(bodies[0].tables, (std::vector<std::string>{"t1", "t2"}));  // t3 trains
  // lila: "\r" removed, then split at a blank line before a tag.
  std::vector<std::string> parts;
  const std::string& body = bodies[0].pgn;
  for (std::size_t at = 0; at < body.size();) {
    std::size_t next = body.find("\n\n[", at);
    parts.push_back(body.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next == std::string::npos ? body.size() : next + 2;
  }
  ASSERT_EQ(parts.size(), 2u);
  const chess::PgnGame one = chess::read_pgn(parts[0]).front();
  const chess::PgnGame two = chess::read_pgn(parts[1]).front();
  EXPECT_EQ(one.tag("Round"), "4.1");
  EXPECT_EQ(one.tag("Board"), "1");
  EXPECT_EQ(one.tag("Event"), "tactiled hall open");
  EXPECT_FALSE(one.has_tag("WhiteClock"));
  EXPECT_FALSE(one.has_tag("GameId"));
  EXPECT_GE(one.moves.size(), 10u);
  for (const chess::PgnMove& m : one.moves) EXPECT_NE(m.comment.find("[%clk "), std::string::npos);
  EXPECT_EQ(two.tag("White"), "Table 2 White");
  EXPECT_EQ(two.tag("Black"), "Table 2 Black");
  EXPECT_EQ(two.tag("Round"), "4.2");
  // Boards no round takes are said once.
  LichessGames narrow({{"abcd1234", 2, 2}});
  narrow.update(hall);
  EXPECT_EQ(narrow.bodies()[0].tables, (std::vector<std::string>{"t2"}));
  EXPECT_EQ(narrow.take_left_out(), (std::vector<std::string>{"t1"}));
  EXPECT_TRUE(narrow.take_left_out().empty());
}

TEST(LichessGames, LilasNames) {
  EXPECT_FALSE(lichess_name(""));
  EXPECT_FALSE(lichess_name("?"));
  EXPECT_FALSE(lichess_name("X"));
  EXPECT_FALSE(lichess_name("É"));
  EXPECT_FALSE(lichess_name("Unknown"));
  EXPECT_TRUE(lichess_name("Li"));
  EXPECT_TRUE(lichess_name("Ærøskøbing"));
}

HallConfig config(std::vector<std::string> args) {
  namespace po = boost::program_options;
  std::vector<const char*> argv{"tactiled-hall", "--hall", "open"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  po::variables_map vm;
  po::store(po::command_line_parser(static_cast<int>(argv.size()), argv.data())
                .options(hall_options())
                .run(),
            vm);
  po::notify(vm);
  return hall_config(vm);
}

TEST(LichessConfig, RoundsTokenAndCredential) {
  const std::string dir = ::testing::TempDir() + "/lichess_config";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/token") << "lip_secret123\nsecond line\n";
  std::ofstream(dir + "/tactiled-hall.lichess-token") << "lip_fromcredential\n";
  ::unsetenv("CREDENTIALS_DIRECTORY");
  HallConfig c = config({"--lichess-push", "abcd1234", "--lichess-token-file", dir + "/token"});
  ASSERT_EQ(c.lichess_rounds.size(), 1u);
  EXPECT_EQ(c.lichess_rounds[0].first, 1);
  EXPECT_EQ(c.lichess_rounds[0].last, 100);
  EXPECT_EQ(c.lichess_token, "lip_secret123");
  EXPECT_EQ(c.lichess_url, "https://lichess.org");
  c = config({"--lichess-push", "aaaa1111:1-100 bbbb2222:101-150", "--lichess-url",
              "http://127.0.0.1:9/", "--lichess-token-file", dir + "/token"});
  ASSERT_EQ(c.lichess_rounds.size(), 2u);
  EXPECT_EQ(c.lichess_rounds[1].id, "bbbb2222");
  EXPECT_EQ(c.lichess_rounds[1].first, 101);
  EXPECT_EQ(c.lichess_url, "http://127.0.0.1:9");
  ::setenv("CREDENTIALS_DIRECTORY", dir.c_str(), 1);
  c = config({"--lichess-push", "abcd1234"});
  EXPECT_EQ(c.lichess_token, "lip_fromcredential");
  ::unsetenv("CREDENTIALS_DIRECTORY");
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--lichess-push", "abcd1234"},
        {"--lichess-push", "abcd1234:1-101", "--lichess-token-file", dir + "/token"},
        {"--lichess-push", "a:1-50 b:50-60", "--lichess-token-file", dir + "/token"},
        {"--lichess-push", "ab/cd", "--lichess-token-file", dir + "/token"},
        {"--lichess-push", "abcd:3-", "--lichess-token-file", dir + "/token"},
        {"--lichess-url", "ftp://x"},
        {"--round-folder", dir}}) {
    try {
      config(bad);
      ADD_FAILURE() << bad[1] << " taken";
    } catch (const std::runtime_error& e) {
      // The token is never said, whatever the error.
      EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace tactile::hall
