// SPDX-License-Identifier: GPL-3.0-or-later
// SelfTestWalk alone (daemon/tactilectl/self_test_walk.h): the walk's steps and verdicts
// on virtual time, fed a board that a test plays by hand: the order the issue asks for,
// a step ended only once the board is as before it and still, a missed step going on,
// chatter kept out of the steps' judgement.
#include "daemon/tactilectl/self_test_walk.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/chess/uci.h"

namespace tactile::ctl {
namespace {

chess::Square sq(const char* name) {
  return chess::parse_square(name);
}

class WalkTest : public ::testing::Test {
 protected:
  WalkTest() : walk_(options()) {}
  static SelfTestOptions options() {
    SelfTestOptions o;
    o.timeout_ms = 10'000;
    o.settle_ms = 500;
    o.chatter_ms = 150;
    return o;
  }
  void begin() { keep(walk_.begin(occupancy_, now_)); }
  void change(chess::Square s, bool closed) {
    const std::uint64_t b = std::uint64_t{1} << int(s);
    occupancy_ = closed ? occupancy_ | b : occupancy_ & ~b;
    walk_.change(s, closed, now_);
    keep(walk_.advance(occupancy_, now_));
  }
  void wait(std::int64_t ms) {
    now_ += ms;
    keep(walk_.advance(occupancy_, now_));
  }
  void keep(const std::vector<SelfTestWalk::News>& n) {
    news_.insert(news_.end(), n.begin(), n.end());
  }
  // A person's lift and return (or in and out) of the hole of `s`, a hand's pace.
  void touch(chess::Square s) {
    const bool in = occupancy_ >> int(s) & 1;
    change(s, !in);
    wait(400);
    change(s, in);
    wait(600);
  }
  int step_of(chess::Square s) const {
    for (std::size_t k = 0; k < walk_.steps().size(); ++k)
      if (walk_.steps()[k].square == s && walk_.steps()[k].kind != SelfTestStep::Kind::TakeInHand &&
          walk_.steps()[k].kind != SelfTestStep::Kind::PutBack)
        return int(k);
    return -1;
  }
  // Does every step as told, with `hand` choosing the hole really touched.
  void follow(const std::function<void(chess::Square)>& hand) {
    while (!walk_.done()) {
      const SelfTestStep step = walk_.steps()[std::size_t(walk_.step())];
      if (step.kind == SelfTestStep::Kind::TakeInHand) {
        change(step.square, false);
        wait(600);
      } else if (step.kind == SelfTestStep::Kind::PutBack) {
        change(step.square, true);
        wait(600);
      } else {
        hand(step.square);
      }
    }
  }

  SelfTestWalk walk_;
  std::uint64_t occupancy_ = kSelfTestStartHoles;
  std::int64_t now_ = 1000;
  std::vector<SelfTestWalk::News> news_;
};

TEST(SelfTestSteps, PiecesFirstThenOnePieceThroughTheEmptyHoles) {
  const std::vector<SelfTestStep> steps = self_test_steps();
  ASSERT_EQ(steps.size(), 66u);
  std::vector<int> touched(64, 0);
  for (const SelfTestStep& s : steps)
    if (s.kind == SelfTestStep::Kind::LiftAndReturn || s.kind == SelfTestStep::Kind::PutInAndOut)
      ++touched[std::size_t(s.square)];
  for (int s = 0; s < 64; ++s) EXPECT_EQ(touched[std::size_t(s)], 1) << s;
  EXPECT_EQ(steps[0].square, sq("a1"));
  EXPECT_EQ(steps[31].square, sq("h8"));
  EXPECT_EQ(steps[32].kind, SelfTestStep::Kind::TakeInHand);
  EXPECT_EQ(steps[33].square, sq("a3"));
  EXPECT_EQ(steps[33].kind, SelfTestStep::Kind::PutInAndOut);
  EXPECT_EQ(steps[65].kind, SelfTestStep::Kind::PutBack);
  EXPECT_EQ(steps[65].square, sq("d1"));
  for (int k = 0; k < 32; ++k)
    EXPECT_TRUE(kSelfTestStartHoles >> int(steps[std::size_t(k)].square) & 1);
}

TEST_F(WalkTest, APerfectBoardPassesAndAStepEndsOnlyWhenTheBoardIsStillAsBefore) {
  begin();
  ASSERT_EQ(walk_.step(), 0);  // the start position is there: the first step at once
  change(sq("a1"), false);
  wait(2000);  // lifted and held: not done
  EXPECT_EQ(walk_.step(), 0);
  change(sq("a1"), true);
  wait(400);  // back, but not yet still for the settle time
  EXPECT_EQ(walk_.step(), 0);
  wait(100);
  EXPECT_EQ(walk_.step(), 1);
  follow([this](chess::Square s) { touch(s); });
  EXPECT_TRUE(walk_.passed());
  EXPECT_TRUE(walk_.problems().empty());
}

TEST_F(WalkTest, TheStartPositionIsWaitedForThenTheHolesReadingWrongAreNamed) {
  occupancy_ &= ~(std::uint64_t{1} << int(sq("e2")));  // e2 reads empty (dead switch)
  begin();
  EXPECT_EQ(walk_.step(), -1);
  wait(9'999);
  EXPECT_EQ(walk_.step(), -1);
  wait(1);
  ASSERT_EQ(walk_.step(), 0);
  bool named = false;
  for (const SelfTestWalk::News& n : news_)
    if (n.kind == SelfTestWalk::News::Kind::StartWrong)
      named = n.squares == std::vector<chess::Square>{sq("e2")};
  EXPECT_TRUE(named);
  follow([this](chess::Square s) {
    if (s == sq("e2"))
      wait(10'000);  // lifted and put back, but the switch shows nothing
    else
      touch(s);
  });
  EXPECT_EQ(walk_.problems(), std::vector<std::string>{"e2 never closed: check the switch"});
}

TEST_F(WalkTest, AnotherHoleAnsweringIsTheWiringAndChatterIsNamedWithoutSpoilingASteps) {
  begin();
  follow([this](chess::Square s) {
    if (s == sq("b1")) {
      // c5 chatters while b1 is lifted: its changes are no hand's and do not answer.
      change(sq("b1"), false);
      for (int k = 0; k < 6; ++k) {
        wait(20);
        change(sq("c5"), k % 2 == 0);
      }
      wait(300);
      change(sq("b1"), true);
      wait(600);
    } else if (s == sq("g4")) {
      touch(sq("h4"));  // g4's hole is wired where h4's should be
    } else {
      touch(s);
    }
  });
  EXPECT_EQ(walk_.holes()[std::size_t(sq("b1"))].passed_step, true);
  EXPECT_EQ(walk_.problems(), (std::vector<std::string>{
                                  "g4 answers as h4: check the wiring against the calibration",
                                  "c5 chatters (5 changes faster than a hand): check the switch"}));
  EXPECT_FALSE(walk_.passed());
}

// A chatter that outlasts the step it began in is no answer to the next step, even when
// that step is judged after the hole has gone quiet again: its changes were no hand's when
// they came. (They once answered for the next hole: "c1 answers as c5", as a loaded
// machine's late judgement made of the self-test's own test.)
TEST_F(WalkTest, AChatterThatOutlastsItsStepIsNoAnswerToTheNext) {
  begin();
  follow([this](chess::Square s) {
    if (s != sq("b1")) return touch(s);
    const bool in = occupancy_ >> int(sq("c5")) & 1;
    change(sq("b1"), false);
    // c5 changes every 100 ms from 10 ms to 1310 ms; b1 is put back at 400 ms, so its
    // step ends at 900 ms, with c5 going on past it.
    for (int k = 0; k < 14; ++k) {
      if (k == 4) {
        wait(90);
        change(sq("b1"), true);
        wait(10);
      } else {
        wait(k == 0 ? 10 : 100);
      }
      change(sq("c5"), k % 2 == 0 ? !in : in);
    }
    ASSERT_EQ(chess::square_name(walk_.steps()[std::size_t(walk_.step())].square), "c1");
    wait(1500);  // c5 quiet long enough to count again before c1 is touched
  });
  EXPECT_TRUE(walk_.holes()[std::size_t(sq("b1"))].passed_step);
  EXPECT_TRUE(walk_.holes()[std::size_t(sq("c1"))].passed_step);
  EXPECT_EQ(
      walk_.problems(),
      (std::vector<std::string>{"c5 chatters (13 changes faster than a hand): check the switch"}));
}

}  // namespace
}  // namespace tactile::ctl
