// SPDX-License-Identifier: GPL-3.0-or-later
// Each board's speaker on its own ALSA device, with the real libasound and no sound card:
// an ALSA configuration of the test's own defines two PCMs of type `file` (raw samples
// written to a file, the null device behind it). What each file receives is compared with
// what the espeak-ng program itself synthesises for the phrase.
#include <gtest/gtest.h>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/speech/alsa_speaker.h"
#include "tests/support/slurp.h"
#include "tests/support/spoken_audio.h"

namespace tactile::speech {
namespace {

namespace fs = std::filesystem;
using record::Language;
using test::espeak_program;
using test::Samples;
using test::samples_of;
using test::voiced;

double rms(const Samples& v) {
  double sum = 0;
  for (auto x : v) sum += double(x) * x;
  return v.empty() ? 0 : std::sqrt(sum / double(v.size()));
}

class AlsaSpeakerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::absolute("alsa-speaker-" + std::to_string(::getpid())).string();
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/asound.conf") << test::two_file_pcms(dir_);
    // Read by libasound at the first open: this test's devices, nothing of the machine's.
    ::setenv("ALSA_CONFIG_PATH", (dir_ + "/asound.conf").c_str(), 1);
    synthesiser_ = new Synthesiser(Language::English);
  }
  static void TearDownTestSuite() {
    delete synthesiser_;
    fs::remove_all(dir_);
  }
  void SetUp() override {
    for (const char* board : {"a", "b"}) fs::remove(dir_ + "/" + board + ".raw");
  }
  Samples heard(const char* board) { return samples_of(test::slurp(dir_ + "/" + board + ".raw")); }
  static std::string dir_;
  static Synthesiser* synthesiser_;
};
std::string AlsaSpeakerTest::dir_;
Synthesiser* AlsaSpeakerTest::synthesiser_ = nullptr;

TEST_F(AlsaSpeakerTest, EachBoardHearsItsOwnPhrasesInItsOwnVoice) {
  {
    AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
    AlsaSpeaker b(*synthesiser_, Language::German, "board_b");
    a.say("Knight f three");
    b.say("Springer Felix drei");
    a.wait();
    b.wait();
  }
  const Samples a = heard("a"), b = heard("b");
  EXPECT_GT(rms(a), 300.0);
  EXPECT_GT(rms(b), 300.0);
  // What espeak-ng says for each phrase in each board's language: the same speech (the
  // program ends a phrase with more silence, and its samples differ by a few units).
  EXPECT_NEAR(voiced(a), voiced(espeak_program(test::kEnglishVoice, "Knight f three")),
              0.03 * voiced(a));
  EXPECT_NEAR(voiced(b), voiced(espeak_program("de", "Springer Felix drei")), 0.03 * voiced(b));
}

TEST_F(AlsaSpeakerTest, ReportsTheEndOfAPhraseOnItsOwnBoard) {
  AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
  AlsaSpeaker b(*synthesiser_, Language::German, "board_b");
  b.say("Bauer Eva vier", 7);
  pollfd fd{b.finished_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  EXPECT_EQ(b.take_finished(), std::vector<int>{7});
  EXPECT_TRUE(a.take_finished().empty());
  EXPECT_EQ(heard("a").size(), 0u);
  EXPECT_NEAR(voiced(heard("b")), voiced(espeak_program("de", "Bauer Eva vier")),
              0.03 * voiced(heard("b")));
}

TEST_F(AlsaSpeakerTest, CancelSilencesOneBoardOnly) {
  AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
  AlsaSpeaker b(*synthesiser_, Language::German, "board_b");
  // Queued but dropped by cancel before they are played (wait() at once would play them).
  b.say("Springer Felix drei", 3);
  for (int i = 0; i < 20; ++i) a.say("Pawn e four takes d five", 100 + i);
  a.cancel();
  a.say("Knight f three", 9);
  a.wait();
  b.wait();
  std::vector<int> ended = a.take_finished();
  ASSERT_FALSE(ended.empty());
  EXPECT_EQ(ended.back(), 9);   // the phrase after the cancel is played to its end
  EXPECT_LE(ended.size(), 2u);  // of the twenty before it, one was under way at most
  EXPECT_EQ(b.take_finished(), std::vector<int>{3});  // board B's phrase was not cut
}

TEST_F(AlsaSpeakerTest, ADeviceThatCannotBeOpenedIsNamed) {
  try {
    AlsaSpeaker speaker(*synthesiser_, Language::English, "no_such_device");
    FAIL() << "opened a device that does not exist";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open ALSA device 'no_such_device'"),
              std::string::npos)
        << e.what();
  }
}

// A working voice is no fault, neither is the silence of volume 0 (the player's choice);
// a phrase heard keeps fault() empty. (A voice whose data is missing: test_publish and
// the braille test run tactiled with such a copy of espeak-ng's data, ESPEAK_DATA_PATH.)
TEST_F(AlsaSpeakerTest, AWorkingVoiceAndVolumeZeroAreNoFault) {
  AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
  a.check_voice();
  EXPECT_EQ(a.fault(), "");
  a.say("Knight f three", 1, SpeechVoice{.rate = 160, .volume = 0});
  a.say("Knight f three", 2);
  a.wait();
  EXPECT_EQ(a.fault(), "");
  EXPECT_EQ(a.take_finished(), (std::vector<int>{1, 2}));
}

// A time warning (issue 21) is heard before what was queued before it, and cancel()
// neither drops it from the queue nor cuts it.
TEST_F(AlsaSpeakerTest, AnUrgentPhraseGoesFirstAndIsNeverCancelled) {
  AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
  // The first a long one: the queue behind it is still whole when the warnings come.
  a.say("White one hour twelve minutes, Black forty eight minutes, twenty two moves", 1);
  for (int i = 2; i <= 6; ++i) a.say("Pawn e four takes d five", i);
  a.say_urgent("two minutes left", 90);
  a.say_urgent("one minute left", 91);  // after the urgent one before it
  a.wait();
  std::vector<int> ended = a.take_finished();
  ASSERT_EQ(ended.size(), 8u);
  // At most the first phrase was under way when the warnings came.
  const auto at90 = std::find(ended.begin(), ended.end(), 90) - ended.begin();
  EXPECT_LE(at90, 1);
  EXPECT_EQ(ended[std::size_t(at90) + 1], 91);

  for (int i = 1; i <= 10; ++i) a.say("Pawn e four takes d five", 200 + i);
  a.say_urgent("thirty seconds left", 92);
  a.cancel();  // the ordinary phrases go, the warning stays
  a.cancel();
  a.wait();
  ended = a.take_finished();
  EXPECT_NE(std::find(ended.begin(), ended.end(), 92), ended.end());
  EXPECT_LE(ended.size(), 2u);
}

// Each board's rate and volume reach espeak-ng: twice the rate, about half the length;
// a quarter of the volume, a far lower level.
TEST_F(AlsaSpeakerTest, RateAndVolumeOfAPhraseAreItsOwn) {
  const std::string text = "White one minute forty nine seconds, Black one minute";
  Samples normal, fast, quiet;
  for (Samples* out : {&normal, &fast, &quiet}) {
    fs::remove(dir_ + "/a.raw");
    {
      AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
      SpeechVoice v;
      if (out == &fast) v.rate = 320;
      if (out == &quiet) v.volume = 25;
      a.say(text, 0, v);
      a.wait();
    }
    *out = heard("a");
  }
  EXPECT_NEAR(voiced(fast) / voiced(normal), 0.5, 0.12);
  EXPECT_LT(rms(quiet), 0.4 * rms(normal));
  EXPECT_GT(rms(quiet), 0.1 * rms(normal));
}

}  // namespace
}  // namespace tactile::speech
