// SPDX-License-Identifier: GPL-3.0-or-later
// Speaks what the intelligibility benchmark recognises (square_intelligibility.py) as
// tactiled speaks it: the words of core/record (square_words, for_speech) synthesised by
// the daemon's own speech driver (EspeakSpeaker, the English voice) at the player's rate
// and volume, one WAV file per phrase.
//
//   square_speech squares OUTDIR [WPM]     OUTDIR/WORDING/SQ.wav for the 64 squares in each
//                                          English wording (names, letters), and
//                                          OUTDIR/WORDING/squares.tsv: "SQ<TAB>words"
//   square_speech lines FILE OUTDIR [WPM]  OUTDIR/uNNNN.wav for each line of FILE (the
//                                          listener's adaptation text)
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/chess/types.h"
#include "core/chess/uci.h"
#include "core/game/player_settings.h"
#include "core/record/move_phrase.h"
#include "core/record/speech_spelling.h"
#include "drivers/speech/espeak_speaker.h"
#include "drivers/speech/wav.h"

namespace {

using tactile::record::Language;
using tactile::speech::EspeakSpeaker;

void write_wav(EspeakSpeaker& speaker, const std::string& text, const std::filesystem::path& to) {
  speaker.say(tactile::record::for_speech(text, Language::English));
  std::ofstream(to, std::ios::binary)
      << tactile::speech::wav_bytes(speaker.take_samples(), speaker.sample_rate());
}

int squares(const std::filesystem::path& out, EspeakSpeaker& speaker) {
  using tactile::record::SquareNames;
  for (const SquareNames names : {SquareNames::Names, SquareNames::Letters}) {
    const std::filesystem::path dir = out / tactile::record::square_names_code(names);
    std::filesystem::create_directories(dir);
    std::ofstream list(dir / "squares.tsv");
    for (int i = 0; i < 64; ++i) {
      const auto sq = tactile::chess::Square(i);
      const std::string words = tactile::record::square_words(sq, Language::English, {names});
      const std::string name = tactile::chess::square_name(sq);
      write_wav(speaker, words, dir / (name + ".wav"));
      list << name << '\t' << words << '\n';
    }
  }
  return 0;
}

int lines(const std::string& file, const std::filesystem::path& out, EspeakSpeaker& speaker) {
  std::ifstream in(file);
  if (!in) {
    std::cerr << "square_speech: cannot read " << file << '\n';
    return 1;
  }
  std::filesystem::create_directories(out);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::string name = std::to_string(++n);
    name = "u" + std::string(name.size() < 4 ? 4 - name.size() : 0, '0') + name + ".wav";
    write_wav(speaker, line, out / name);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const bool by_squares = args.size() >= 2 && args[0] == "squares";
  const bool by_lines = args.size() >= 3 && args[0] == "lines";
  if (!by_squares && !by_lines) {
    std::cerr << "usage: square_speech squares OUTDIR [WPM] | lines FILE OUTDIR [WPM]\n";
    return 2;
  }
  const std::size_t rate_at = by_squares ? 2 : 3;
  const int rate =
      args.size() > rate_at ? std::stoi(args[rate_at]) : tactile::game::kDefaultSpeechRate;
  try {
    EspeakSpeaker speaker(Language::English, EspeakSpeaker::Output::Capture, rate);
    speaker.set_voice(rate, tactile::game::kDefaultSpeechVolume);
    return by_squares ? squares(args[1], speaker) : lines(args[1], args[2], speaker);
  } catch (const std::exception& e) {
    std::cerr << "square_speech: " << e.what() << '\n';
    return 1;
  }
}
