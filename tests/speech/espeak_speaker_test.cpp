// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the real espeak-ng in capture mode: what the player would hear, as samples.
#include <gtest/gtest.h>

#include <poll.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "drivers/speech/espeak_speaker.h"
#include "drivers/speech/wav.h"

namespace tactile::speech {
namespace {

using record::Language;

double seconds(const EspeakSpeaker& s) {
  return double(s.samples().size()) / s.sample_rate();
}

double rms(const std::vector<std::int16_t>& v) {
  double sum = 0;
  for (auto x : v) sum += double(x) * x;
  return v.empty() ? 0 : std::sqrt(sum / v.size());
}

TEST(EspeakSpeaker, GermanAnnouncementIsAudibleSpeech) {
  EspeakSpeaker speaker(Language::German, EspeakSpeaker::Output::Capture);
  EXPECT_EQ(speaker.voice(), "de");
  speaker.say("Springer Gustav drei");
  // A three-word phrase at 160 words a minute lasts about a second, not a click or a minute.
  EXPECT_GT(seconds(speaker), 0.5);
  EXPECT_LT(seconds(speaker), 5.0);
  EXPECT_GT(rms(speaker.samples()), 300.0);
}

TEST(EspeakSpeaker, LongerPhraseTakesLonger) {
  EspeakSpeaker speaker(Language::German, EspeakSpeaker::Output::Capture);
  speaker.say("Kurze Rochade");
  const auto short_len = speaker.samples().size();
  speaker.pause(500);
  EXPECT_EQ(speaker.samples().size(), short_len + std::size_t(speaker.sample_rate() / 2));
  speaker.say("Bauer Eva vier schlaegt David fuenf");
  EXPECT_GT(speaker.samples().size() - short_len - speaker.sample_rate() / 2, short_len);
}

TEST(EspeakSpeaker, RussianCyrillicIsSpoken) {
  EspeakSpeaker speaker(Language::Russian, EspeakSpeaker::Output::Capture);
  EXPECT_EQ(speaker.voice(), "ru");
  speaker.say("Конь эф три");
  EXPECT_GT(seconds(speaker), 0.4);
  EXPECT_GT(rms(speaker.samples()), 300.0);
}

TEST(EspeakSpeaker, ReportsTheEndOfAPhraseAskedFor) {
  // The end of a question is what auto mode waits for (docs/recognition.md). Capture
  // mode gets espeak-ng's end-of-message event as playback does, only at once.
  EspeakSpeaker speaker(Language::German, EspeakSpeaker::Output::Capture);
  ASSERT_GE(speaker.finished_fd(), 0);
  speaker.say("Kurze Rochade");  // a statement: nothing to report
  EXPECT_TRUE(speaker.take_finished().empty());
  speaker.say("Bauer Eva acht wird Dame? Umwandlung in Dame, richtig?", 3);
  speaker.say("Turm David vier?", 4);
  EXPECT_EQ(speaker.take_finished(), (std::vector<int>{3, 4}));
  EXPECT_TRUE(speaker.take_finished().empty());
}

// Plays a question into ALSA's null device (no sound card needed) and waits for its end
// to be reported: 0 when it was, with its id.
int playback_reports_the_end() {
  const std::string conf = ::testing::TempDir() + "asound-null.conf";
  std::FILE* f = std::fopen(conf.c_str(), "w");
  if (!f) return 2;
  std::fputs("pcm.!default { type null }\n", f);
  std::fclose(f);
  setenv("ALSA_CONFIG_PATH", conf.c_str(), 1);
  setenv("PULSE_SERVER", "/nonexistent", 1);  // ALSA, not a sound server
  EspeakSpeaker speaker(Language::English, EspeakSpeaker::Output::Playback);
  speaker.say("Rook d-four takes g-four?", 5);
  pollfd p{speaker.finished_fd(), POLLIN, 0};
  const bool ready = ::poll(&p, 1, 20000) == 1;
  return ready && speaker.take_finished() == std::vector<int>{5} ? 0 : 1;
}

TEST(EspeakSpeaker, PlaybackReportsTheEndOfAPhraseWhenItWasPlayed) {
  // In a child process started afresh ("threadsafe": not a fork of this one, where other
  // tests may have started the synthesiser): it runs in one output mode per process.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::_Exit(playback_reports_the_end()), ::testing::ExitedWithCode(0), "");
}

TEST(EspeakSpeaker, OnlyOneAtATime) {
  EspeakSpeaker first(Language::English, EspeakSpeaker::Output::Capture);
  EXPECT_THROW(EspeakSpeaker(Language::German, EspeakSpeaker::Output::Capture), std::logic_error);
}

TEST(Wav, SoxReadsWhatWasWritten) {
  std::vector<std::int16_t> samples(22050 * 3 / 2, 1000);  // 1.5 s at 22050 Hz
  const auto path = (std::filesystem::temp_directory_path() / "tactiled-wav-test.wav").string();
  std::ofstream(path, std::ios::binary) << wav_bytes(samples, 22050);
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(("soxi -D " + path).c_str(), "r"), pclose);
  ASSERT_TRUE(p);
  char buf[64] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, p.get()), nullptr);
  EXPECT_NEAR(std::stod(buf), 1.5, 1e-6);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tactile::speech
