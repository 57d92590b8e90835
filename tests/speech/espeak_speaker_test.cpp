// Runs the real espeak-ng in capture mode: what the player would hear, as samples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

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

TEST(EspeakSpeaker, OnlyOneAtATime) {
  EspeakSpeaker first(Language::English, EspeakSpeaker::Output::Capture);
  EXPECT_THROW(EspeakSpeaker(Language::German, EspeakSpeaker::Output::Capture), std::logic_error);
}

TEST(Wav, SoxReadsWhatWasWritten) {
  std::vector<std::int16_t> samples(22050 * 3 / 2, 1000);  // 1.5 s at 22050 Hz
  const auto path = (std::filesystem::temp_directory_path() / "tactiled-wav-test.wav").string();
  write_wav(path, samples, 22050);
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(("soxi -D " + path).c_str(), "r"), pclose);
  ASSERT_TRUE(p);
  char buf[64] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, p.get()), nullptr);
  EXPECT_NEAR(std::stod(buf), 1.5, 1e-6);
  std::filesystem::remove(path);
}

TEST(Wav, UnwritablePathIsAClearError) {
  try {
    write_wav("/nonexistent-dir/x.wav", {1, 2, 3}, 22050);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.wav"), std::string::npos);
  }
}

}  // namespace
}  // namespace tactile::speech
