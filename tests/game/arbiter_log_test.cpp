// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter log's chain: each line carries the SHA-256 of the line before it.
#include "core/record/arbiter_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/game/log_entries.h"

namespace tactile::record {
namespace {
using ::testing::HasSubstr;

TEST(ArbiterLog, Sha256KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

std::string three_lines() {
  ArbiterLog log;
  std::string text;
  text += log.line(game::hole_entry(0, {1500, chess::E2, board::Hole::Up})) + "\n";
  text += log.line(game::hole_entry(0, {1820, chess::E4, board::Hole::Down})) + "\n";
  text += log.line(game::button_entry(0, {1900, board::Button::Announce})) + "\n";
  return text;
}

TEST(ArbiterLog, LinesChainByHash) {
  ArbiterLog log;
  const std::string first = log.line(game::hole_entry(0, {1500, chess::E2, board::Hole::Up}));
  EXPECT_EQ(first,
            "{\"seq\":0,\"prev\":\"" + kGenesisHash +
                "\",\"t\":1500,\"type\":\"hole\",\"board\":\"A\",\"square\":\"e2\",\"change\":"
                "\"up\"}");
  EXPECT_EQ(log.last_hash(), sha256_hex(first));
  const std::string second = log.line(game::button_entry(0, {1900, board::Button::Time}));
  EXPECT_THAT(second, HasSubstr("\"seq\":1,\"prev\":\"" + sha256_hex(first) + "\""));
  EXPECT_EQ(log.next_seq(), 2u);
}

TEST(ArbiterLog, VerifyAcceptsTheChain) {
  EXPECT_EQ(verify_log(three_lines()), 3u);
}

void expect_broken(const std::string& text, const std::string& line) {
  try {
    verify_log(text);
    ADD_FAILURE() << "tampering not found";
  } catch (const chess::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr(line));
  }
}

TEST(ArbiterLog, VerifyFindsAChangedLine) {
  std::string text = three_lines();
  text.replace(text.find("e4"), 2, "e5");  // line 2 changed: line 3's hash no longer fits
  expect_broken(text, "line 2: changed: line 3 does not carry the hash of the line before");
}

TEST(ArbiterLog, VerifyFindsARemovedLine) {
  std::string text = three_lines();
  const std::size_t a = text.find('\n') + 1, b = text.find('\n', a) + 1;
  text.erase(a, b - a);
  expect_broken(text, "line 2: seq 2 where 1 was expected: 1 record removed before it");
}

TEST(ArbiterLog, VerifyFindsSwappedLines) {
  std::string text = three_lines();
  const std::size_t a = text.find('\n') + 1, b = text.find('\n', a) + 1;
  const std::string second = text.substr(a, b - a);
  text.erase(a, b - a);
  text += second;  // lines 2 and 3 swapped
  expect_broken(text, "line 2: out of order: seq 2 here, seq 1 is line 3 (records swapped");
}

TEST(ArbiterLog, VerifyFindsACopiedLine) {
  std::string text = three_lines();
  text += text.substr(0, text.find('\n') + 1);
  expect_broken(text, "line 4: seq 0 again where 3 was expected: a record inserted or copied");
}

TEST(ArbiterLog, VerifyFindsGarbage) {
  expect_broken(three_lines() + "not json\n", "line 4: not a JSON object");
}

TEST(ArbiterLog, ContinuesAnExistingChain) {
  const std::string text = three_lines();
  ArbiterLog first;
  std::string last;
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t end = text.find('\n', pos);
    last = text.substr(pos, end - pos);
    pos = end + 1;
  }
  ArbiterLog more(3, sha256_hex(last));
  const std::string next = text + more.line(game::button_entry(0, {2000, board::Button::Repeat}));
  EXPECT_EQ(verify_log(next), 4u);
}

// An editor's byte order mark or CRLF line ends were reported as a hash mismatch on the
// next line; they are named for what they are.
TEST(ArbiterLog, AByteOrderMarkOrCrlfLineEndsAreNamed) {
  ArbiterLog log;
  std::string text;
  for (int i = 0; i < 3; ++i) text += log.line(game::LogEntry{{"t", i}, {"type", "x"}}) + "\n";
  ASSERT_EQ(verify_log(text), 3u);
  try {
    verify_log("\xEF\xBB\xBF" + text);
    ADD_FAILURE() << "a byte order mark passed";
  } catch (const chess::ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("line 1: begins with a UTF-8 byte order mark"));
  }
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  try {
    verify_log(crlf);
    ADD_FAILURE() << "CRLF line ends passed";
  } catch (const chess::ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("line 1: ends with a carriage return"));
  }
}

}  // namespace
}  // namespace tactile::record
