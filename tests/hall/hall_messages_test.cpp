// SPDX-License-Identifier: GPL-3.0-or-later
// Every topic's payload read once into a typed value: each field's type and range
// checked, unknown fields ignored, text with a control character or a bidi override
// refused whole (docs/hall.md, "What is checked").
#include <gtest/gtest.h>

#include <string>

#include "core/chess/text_check.h"
#include "daemon/mqtt/resend_request.h"
#include "daemon/tactiled-hall/hall_messages.h"

namespace tactile::hall {
namespace {

TEST(TextCheck, C1AndBidiControlsAreRefusedAsC0Is) {
  EXPECT_TRUE(chess::plain_text("Anna Müller", 200));
  EXPECT_TRUE(chess::plain_text("Алёхин", 200));
  EXPECT_TRUE(chess::plain_text("\xE2\x80\x94 dash", 200));  // U+2014, next to the bidi ones
  for (const char* bad : {"a\x1b[2J", "a\x7f", "a\xC2\x85",
                          "a\xC2\x9B"
                          "31m",
                          "a\xE2\x80\xAE", "a\xE2\x81\xA6", "a\xE2\x80\x8F", "a\xD8\x9C", "a\ttab"})
    EXPECT_FALSE(chess::plain_text(bad, 200)) << bad;
}

TEST(HallMessages, TheIssuesBadStatesAreRefusedWhole) {
  EXPECT_FALSE(parse_state(R"({"discrepancies":[{"board":7,"squares":["e4"]}]})"));
  EXPECT_FALSE(parse_state(R"({"discrepancies":[{"board":"A","squares":["e9"]}]})"));
  EXPECT_FALSE(parse_state(R"({"health":{"A":{"suspect":"e4"}}})"));
  EXPECT_FALSE(parse_state(R"({"health":{"A":{"self_test":{"passed":"yes"}}}})"));
  EXPECT_FALSE(parse_state(R"({"read_at":1e300})"));
  EXPECT_FALSE(parse_state(R"({"read_at":1700000000000.5})"));
  EXPECT_FALSE(parse_state(R"({"black_ms":9223372036854775807})"));
  EXPECT_FALSE(parse_state(R"({"white_ms":18446744073709551615})"));
  EXPECT_FALSE(parse_state(R"({"white":"Eve\u202e"})"));
  EXPECT_FALSE(parse_state(R"({"white":"A\u0085"})"));
  EXPECT_FALSE(parse_state(R"({"alarms":["<script>"]})"));
  EXPECT_FALSE(parse_state(R"({"alarms":"flag"})"));
  EXPECT_FALSE(parse_state(R"({"running":"both"})"));
  EXPECT_FALSE(parse_state(R"({"game_id":"../x"})"));
  EXPECT_FALSE(parse_state(R"({"games":[{"game_id":"x","seq":1}]})"));
  EXPECT_FALSE(parse_state(R"({"last_move":{"san":"e4","by":7}})"));
  EXPECT_FALSE(parse_state("[1,2]"));
  EXPECT_FALSE(parse_state("{"));
}

TEST(HallMessages, AGoodStateIsReadWithItsTypesAndUnknownFieldsIgnored) {
  const std::optional<TableState> s = parse_state(
      R"({"white":"Anna","black":null,"white_ms":290000,"black_ms":-500,"running":"white",)"
      R"("read_at":1700000000000,"alarms":["flag","board-suspect"],"seq":42,)"
      R"("game_id":"0123456789abcdef0123456789abcdef","moves":[1,{"x":2}],"future":{"a":[]},)"
      R"("health":{"A":{"chatter":3,"suspect":["e4"],"self_test":{"passed":false,)"
      R"("time":"2026-01-01T10:00:00Z","failed":["a1"]}},"C":"anything"},)"
      R"("discrepancies":[{"board":"B","squares":["d5","e4"]}],)"
      R"("games":[{"game_id":"00000000000000000000000000000001","seq":9}],)"
      R"("last_move":{"san":"e4","uci":"e2e4","by":"white"}})");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->white, "Anna");
  EXPECT_FALSE(s->black);
  EXPECT_EQ(s->white_ms, 290000);
  EXPECT_EQ(s->black_ms, -500);
  EXPECT_EQ(s->running, "white");
  EXPECT_EQ(s->seq, 42);
  EXPECT_EQ(s->alarms.size(), 2u);
  ASSERT_EQ(s->health.size(), 1u);  // "C" is no board: ignored
  EXPECT_EQ(s->health.at("A").suspect, std::vector<std::string>{"e4"});
  EXPECT_EQ(s->health.at("A").self_test->failed, std::vector<std::string>{"a1"});
  ASSERT_EQ(s->discrepancies.size(), 1u);
  EXPECT_EQ(s->discrepancies[0].board, "B");
  ASSERT_EQ(s->games.size(), 1u);
  EXPECT_EQ(s->games[0].seq, 9);
  EXPECT_EQ(s->last_move->uci, "e2e4");
  EXPECT_TRUE(parse_state("{}"));
}

TEST(HallMessages, ARecordNeedsASeqInRangeAndPlainTextEverywhere) {
  const std::optional<Record> start =
      parse_record(R"({"seq":0,"prev":"00","t":0,"type":"start","white":"Anna"})");
  ASSERT_TRUE(start);
  EXPECT_TRUE(start->start);
  EXPECT_FALSE(parse_record(R"({"seq":0,"type":"clock"})")->start);
  EXPECT_EQ(parse_record(R"({"seq":5})")->seq, 5);
  for (const char* bad :
       {R"({"seq":"5"})", R"({"seq":-1})", R"({"seq":5.5})", R"({"seq":99999999999})",
        R"({"type":"start"})", R"({"seq":3,"type":7})", R"({"seq":3,"name":"a\u001b[2J"})",
        R"({"seq":3,"x":[{"y":"\u202e"}]})", R"({"seq":3,"a\u0007":1})", "[]", "x"})
    EXPECT_FALSE(parse_record(bad)) << bad;
}

TEST(HallMessages, APgnWithAControlCharacterInATagOrCommentIsRefusedWhole) {
  EXPECT_TRUE(parse_pgn("[White \"Anna\"]\n\n1. e4 {[%clk 0:05:00]} e5 *\n"));
  EXPECT_FALSE(parse_pgn("[White \"A\x1b[31m\"]\n\n1. e4 e5 *\n"));
  EXPECT_FALSE(parse_pgn("[White \"A\x07\"]\n\n1. e4 e5 *\n"));
  EXPECT_FALSE(parse_pgn(std::string("[White \"A\"]\n\n1. e4 {x\0y} e5 *\n", 30)));
  EXPECT_FALSE(parse_pgn("[White \"A\"]\n\n1. e4 {x \xE2\x80\xAE y} e5 *\n"));
  EXPECT_FALSE(parse_pgn("[White \"A\"]\n\n{\xC2\x9B} 1. e4 e5 *\n"));
  EXPECT_FALSE(parse_pgn("1. e4 *\n\n1. d4 *\n"));  // two games
  EXPECT_FALSE(parse_pgn("1. Zz9 *\n"));
}

TEST(HallMessages, AStatusIsOnlineOrOffline) {
  EXPECT_EQ(parse_status("online"), "online");
  EXPECT_EQ(parse_status("offline"), "offline");
  EXPECT_FALSE(parse_status("Online"));
  EXPECT_FALSE(parse_status("online\n"));
}

TEST(ResendRequest, ReadsTheContractAndNothingElse) {
  const std::string id(32, 'a');
  const auto r = mqtt::parse_resend_request(R"({"game_id":")" + id + R"(","from":3,"to":7})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->game_id, id);
  EXPECT_EQ(r->from, 3);
  EXPECT_EQ(r->to, 7);
  EXPECT_EQ(mqtt::parse_resend_request(r->to_json())->to, 7);
  EXPECT_TRUE(mqtt::parse_resend_request(R"({"game_id":"","from":0,"to":0})"));
  // A span past the bound is cut to it.
  EXPECT_EQ(mqtt::parse_resend_request(R"({"game_id":"","from":10,"to":9999999})")->to,
            10 + mqtt::ResendRequest::kMaxSpan - 1);
  for (const std::string bad :
       {R"({"game_id":"x","from":0,"to":1})", R"({"game_id":"","from":5,"to":4})",
        R"({"game_id":"","from":-1,"to":4})", R"({"game_id":"","from":"0","to":4})",
        R"({"game_id":"","from":0,"to":18446744073709551615})", R"({"from":0,"to":1})",
        R"({"game_id":"","from":0,"to":99999999999})", "[]", ""})
    EXPECT_FALSE(mqtt::parse_resend_request(bad)) << bad;
}

}  // namespace
}  // namespace tactile::hall
