// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl calibrate: finds which switch sits under which square by asking a person to
// lift and put pieces on named squares, and builds the switch-to-square mapping
// (core/board/switch_map.h). The board is read raw, through the daemon's driver with no
// mapping, behind RawBoard; the steps are printed and spoken.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/board/switch_map.h"
#include "core/chess/types.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"
#include "daemon/tactilectl/typed_keys.h"
#include "drivers/speech/speaker.h"

namespace tactile::ctl {

// One thing the person does: take the piece out of `square`'s hole, or put one in.
struct CalibrationStep {
  chess::Square square = chess::NoSquare;
  bool lift = true;
};

// From the start position: the 32 pieces lifted (a1..h1, a2..h2, a7..h7, a8..h8), then put
// into the 32 empty holes (a3..h6): every hole once.
std::vector<CalibrationStep> calibration_steps();

// A board's switches without any mapping: bit i = switch i closed (a peg in its hole).
class RawBoard {
 public:
  virtual ~RawBoard() = default;
  // The descriptor to wait on (-1: none now) and how long the wait may last before
  // service() is due anyway (-1: no limit).
  virtual int fd() const = 0;
  virtual int timeout_ms() const = 0;
  // Reads what is pending; appends the buttons pressed and what the driver has to say
  // (a serial board found or lost).
  virtual void service(std::vector<board::Button>& buttons, std::vector<std::string>& notes) = 0;
  // False until the board can be read (a serial board not found yet).
  virtual bool ready() const = 0;
  virtual std::uint64_t switches() const = 0;
  virtual int switch_count() const = 0;
};

struct CalibrationOptions {
  record::Language language = record::Language::German;
  record::SquareWording squares;  // how the board's player hears the squares
  int timeout_ms = 60'000;        // nothing changed this long: say so and ask again
  int settle_ms = 500;            // changes this soon after the first belong to the same step
};

class Calibration {
 public:
  // `keys_fd`: the terminal's input (-1: none): a line with r (or an empty line) repeats
  // the step, b goes back one step, q stops. `speaker` may be null.
  Calibration(RawBoard& board, speech::Speaker* speaker, int keys_fd, std::ostream& out,
              CalibrationOptions options);

  // Walks through every step; the mapping, or nothing when the person stopped.
  std::optional<board::SwitchMap> run();

 private:
  enum class Input { Nothing, Switches, Repeat, Back, Quit, Timeout };

  // Waits until the switches change from `before`, a key or button, or `deadline_ms`.
  Input wait(std::uint64_t before, std::int64_t deadline_ms);
  // Says and prints `text` with `tag` before it on the printed line.
  void tell(const std::string& tag, const std::string& text);
  // Waits until the switches are `wanted`, saying `text` again after every timeout.
  // False when the person stopped.
  bool wait_for(std::uint64_t wanted, const std::string& tag, const std::string& text);
  // Reads the board until `until_ms`, whatever changes (keys and buttons are kept).
  void pause(std::int64_t until_ms);
  void service();

  RawBoard& board_;
  speech::Speaker* speaker_;
  TypedKeys keys_;
  std::ostream& out_;
  CalibrationOptions options_;
  std::vector<board::Button> buttons_;
};

}  // namespace tactile::ctl
