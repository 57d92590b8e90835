// SPDX-License-Identifier: GPL-3.0-or-later
// Each board's speaker on its own ALSA device, with the real libasound and no sound card:
// an ALSA configuration of the test's own defines two PCMs of type `file` (raw samples
// written to a file, the null device behind it). What each file receives is compared with
// what the espeak-ng program itself synthesises for the phrase.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
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
    // And one writing into a pipe (a FIFO made by the test that uses it).
    std::ofstream(dir_ + "/asound.conf")
        << test::two_file_pcms(dir_) << "pcm.board_paced { type file slave.pcm \"silent\" file \""
        << dir_ << "/paced.raw\" format \"raw\" }\n";
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
  b.play("Bauer Eva vier", 7);
  pollfd fd{b.finished_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  const std::vector<PhraseEnd> ended = b.take_finished();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].id, 7);
  EXPECT_FALSE(ended[0].cut);
  EXPECT_FALSE(ended[0].failed);
  // Played whole: its length is what the device received.
  EXPECT_GT(ended[0].length_ms, 300);
  EXPECT_EQ(ended[0].played_ms, ended[0].length_ms);
  EXPECT_NEAR(double(ended[0].length_ms), double(heard("b").size()) * 1000 / 22050, 2.0);
  EXPECT_TRUE(a.take_finished().empty());
  EXPECT_EQ(heard("a").size(), 0u);
  EXPECT_NEAR(voiced(heard("b")), voiced(espeak_program("de", "Bauer Eva vier")),
              0.03 * voiced(heard("b")));
}

TEST_F(AlsaSpeakerTest, ANewPhraseCutsTheOneNotYetHeardOnOneBoardOnly) {
  AlsaSpeaker a(*synthesiser_, Language::English, "board_a");
  AlsaSpeaker b(*synthesiser_, Language::German, "board_b");
  b.play("Springer Felix drei", 3);
  // Each play() cuts the one before it: of the twenty, one was under way at most.
  for (int i = 0; i < 20; ++i) a.play("Pawn e four takes d five", 100 + i);
  a.play("Knight f three", 9);
  a.wait();
  b.wait();
  std::vector<PhraseEnd> ended = a.take_finished();
  ASSERT_EQ(ended.size(), 21u);  // every phrase's end is reported, cut or not
  EXPECT_EQ(ended.back(), (PhraseEnd{.id = 9,
                                     .played_ms = ended.back().length_ms,
                                     .length_ms = ended.back().length_ms}));
  for (std::size_t i = 0; i + 1 < ended.size(); ++i) EXPECT_TRUE(ended[i].cut) << i;
  const std::vector<PhraseEnd> b_ended = b.take_finished();
  ASSERT_EQ(b_ended.size(), 1u);
  EXPECT_EQ(b_ended[0].id, 3);
  EXPECT_FALSE(b_ended[0].cut);  // board B's phrase was not cut
}

// A cut is heard at once: the device's buffer is dropped, not played out. Board A's PCM
// writes into a pipe its reader here drains at the speed of speech, as a sound card
// plays: the phrase under way stops where the reader is, give or take the pipe.
TEST_F(AlsaSpeakerTest, ACutStopsThePhraseUnderWayAndSaysHowMuchWasPlayed) {
  const std::string fifo = dir_ + "/paced.raw";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int in = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(in, 0);
  ::fcntl(in, F_SETPIPE_SZ, 4096);  // a small pipe: about 90 ms of speech
  std::atomic<std::size_t> received{0};
  std::atomic<bool> done{false};
  std::int64_t cut_played_ms = 0, next_ms = 0;
  std::thread reader([&] {
    // 22050 samples of 2 bytes a second, read as time passes.
    const auto begin = std::chrono::steady_clock::now();
    std::size_t budget_used = 0;
    char buffer[4096];
    while (!done) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - begin)
                          .count();
      const std::size_t budget = std::size_t(us) * 44100 / 1'000'000;
      if (budget > budget_used) {
        const auto n = ::read(in, buffer, std::min(sizeof buffer, budget - budget_used));
        if (n > 0) {
          received += std::size_t(n);
          budget_used += std::size_t(n);
        } else {
          budget_used = budget;  // nothing to play: silence, the time is gone
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    // The speaker is closed: the rest of the pipe.
    for (ssize_t n; (n = ::read(in, buffer, sizeof buffer)) > 0;) received += std::size_t(n);
  });
  {
    AlsaSpeaker a(*synthesiser_, Language::English, "board_paced");
    const std::string text =
        "White one hour twelve minutes, Black forty eight minutes, twenty two moves to the "
        "time control, White to move, running";
    a.play(text, 1);
    // Half a second heard: then cut.
    for (int i = 0; i < 10'000 && received < 22050; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_GE(received.load(), 22050u);
    a.cut();
    pollfd fd{a.finished_fd(), POLLIN, 0};
    ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
    const std::vector<PhraseEnd> ended = a.take_finished();
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].id, 1);
    EXPECT_TRUE(ended[0].cut);
    EXPECT_GT(ended[0].length_ms, 4000);
    EXPECT_GE(ended[0].played_ms, 400);
    EXPECT_LT(ended[0].played_ms, ended[0].length_ms / 2);
    a.play("Knight f three", 2);
    a.wait();
    const std::vector<PhraseEnd> next = a.take_finished();
    ASSERT_EQ(next.size(), 1u);
    EXPECT_FALSE(next[0].cut);
    cut_played_ms = ended[0].played_ms;
    next_ms = next[0].length_ms;
  }
  done = true;
  reader.join();
  ::close(in);
  // Of the phrase cut, what was played and no more than the pipe held; then the next.
  EXPECT_LT(double(received) / 44.1, double(cut_played_ms + next_ms + 300));
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
  a.play("Knight f three", 1, SpeechVoice{.rate = 160, .volume = 0});
  a.wait();
  a.play("Knight f three", 2);
  a.wait();
  EXPECT_EQ(a.fault(), "");
  const std::vector<PhraseEnd> ended = a.take_finished();
  ASSERT_EQ(ended.size(), 2u);
  EXPECT_EQ(ended[0].id, 1);
  EXPECT_EQ(ended[1].id, 2);
  EXPECT_FALSE(ended[0].cut || ended[0].failed || ended[1].cut || ended[1].failed);
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
      a.play(text, 0, v);
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
