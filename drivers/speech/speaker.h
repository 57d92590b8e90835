// SPDX-License-Identifier: GPL-3.0-or-later
// Speech output. The session only produces phrases; a Speaker turns them into sound.
#pragma once

#include <string_view>

namespace tactile::speech {

class Speaker {
 public:
  virtual ~Speaker() = default;
  // Queues `text` (UTF-8). Must not block the caller for the length of the phrase.
  virtual void say(std::string_view text) = 0;
  // Drops what is queued or playing, so a newer, more urgent phrase is heard at once.
  virtual void cancel() = 0;
};

}  // namespace tactile::speech
