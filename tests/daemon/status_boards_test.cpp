// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl status names the state of every board of the seating: each board's pending
// reading, the holes it must put back (restoring) and its discrepancy, in the JSON answer
// (`boards`) and in the text; board A's own fields stay as they were.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/chess/position.h"
#include "daemon/tactilectl/status_text.h"
#include "daemon/tactiled/control_requests.h"
#include "tests/game/seated_table.h"

namespace tactile::daemon {
namespace {

using game::ArbiterCommand;
using game::testing::SeatedTable;
using nlohmann::json;
using ::testing::HasSubstr;

constexpr int A = 0, B = 1;

std::string text(const json& status) {
  std::ostringstream out;
  ctl::print_status(status, out);
  return out.str();
}

// Black (board B) to move, his pawn about to promote; auto mode asks a promotion before it
// is made (the default queen, confirmed once the question is heard).
game::SessionConfig promotion() {
  game::SessionConfig c = SeatedTable::config("two-boards", "600+0", board::Completion::Auto);
  c.start = chess::Position::from_fen("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1");
  return c;
}

TEST(StatusBoards, BoardBsPendingReadingAndBoardAsDiscrepancy) {
  SeatedTable t(promotion());
  t.up(A, 500, "e1").advance(2500);  // White's king lifted on his board, not his turn
  t.move(B, 3000, "b2", "b1");       // Black promotes on his board: asked first
  t.advance(4500);
  const json s = status_answer(t.s(), GameFiles{}, 4500);
  ASSERT_TRUE(s.contains("boards")) << s.dump();
  ASSERT_EQ(s["boards"].size(), 2u);
  const json& a = s["boards"][0];
  const json& b = s["boards"][1];
  EXPECT_EQ(a["board"], "A");
  EXPECT_EQ(a["pending"], nullptr);
  EXPECT_EQ(a["restoring"], json::array());
  EXPECT_EQ(a["discrepancy"], json::parse(R"({"empty":["e1"],"occupied":[]})"));
  EXPECT_EQ(b["board"], "B");
  EXPECT_EQ(b["pending"], "b2b1q");
  EXPECT_EQ(b["restoring"], json::array());
  EXPECT_EQ(b["discrepancy"], nullptr);
  // Board A's fields as before.
  EXPECT_EQ(s["pending"], nullptr);
  const std::string said = text(s);
  EXPECT_THAT(said, HasSubstr("pending    B: b2b1q\n"));
  EXPECT_THAT(said, HasSubstr("discrepancy A: e1\n"));
}

// After a takeback both boards put the taken-back move's holes right.
TEST(StatusBoards, EachBoardRestoringAfterATakeback) {
  SeatedTable t(SeatedTable::config("two-boards"));
  t.move(A, 1000, "e2", "e4").press(A, 1300).move(B, 2000, "e2", "e4");
  t.move(B, 3000, "e7", "e5").press(B, 3300).move(A, 4000, "e7", "e5");
  ASSERT_EQ(t.s().moves_made(), 2);
  ArbiterCommand takeback;
  takeback.kind = ArbiterCommand::Kind::Takeback;
  t.arbiter(5000, takeback);
  t.up(A, 6000, "e5").down(A, 6100, "e7");  // A is put right, B not yet
  const json s = status_answer(t.s(), GameFiles{}, 7000);
  ASSERT_TRUE(s.contains("boards")) << s.dump();
  EXPECT_EQ(s["boards"][0]["restoring"], json::array());
  EXPECT_EQ(s["boards"][1]["restoring"], json::parse(R"(["e5","e7"])"));
  EXPECT_EQ(s["boards"][1]["pending"], nullptr);
  EXPECT_EQ(s["restoring"], json::array());  // board A's, as before
  EXPECT_THAT(text(s), HasSubstr("restoring  B: e5 e7\n"));
}

// One board: one entry, and the text as before (no board named).
TEST(StatusBoards, OneBoardHasOneEntry) {
  SeatedTable t(SeatedTable::config("one-board"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  ArbiterCommand takeback;
  takeback.kind = ArbiterCommand::Kind::Takeback;
  t.arbiter(2000, takeback);
  const json s = status_answer(t.s(), GameFiles{}, 2000);
  ASSERT_TRUE(s.contains("boards")) << s.dump();
  ASSERT_EQ(s["boards"].size(), 1u);
  EXPECT_EQ(s["boards"][0]["restoring"], json::parse(R"(["e2","e4"])"));
  EXPECT_EQ(s["restoring"], json::parse(R"(["e2","e4"])"));
  EXPECT_THAT(text(s), HasSubstr("restoring  [\"e2\",\"e4\"]\n"));
}

}  // namespace
}  // namespace tactile::daemon
