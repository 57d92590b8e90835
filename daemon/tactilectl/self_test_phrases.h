// SPDX-License-Identifier: GPL-3.0-or-later
// What tactilectl self-test says, in the game's languages (German, English, Russian);
// {} is replaced by a square's words (record::with_square).
#pragma once

#include "core/record/language.h"

namespace tactile::ctl {

struct SelfTestPhrases {
  const char* set_up;
  const char* lift;
  const char* take;
  const char* touch;
  const char* put_back;
  const char* missed;
  const char* wiring;
  const char* start_wrong;
  const char* passed;
  const char* failed;
  const char* speech;  // the speech check: confirmed with announce, skipped with time
};

const SelfTestPhrases& self_test_phrases(record::Language l);

}  // namespace tactile::ctl
