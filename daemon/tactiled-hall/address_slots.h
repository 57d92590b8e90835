// SPDX-License-Identifier: GPL-3.0-or-later
// Who may hold the hall page's connections, and its event streams among them: at most
// per_address from one address and total in all, so that a viewer at an address that holds
// none is always served. A newcomer never waits and is never refused: at its address's cap
// the address's own oldest makes room (a page reloaded), and at the total the oldest of the
// address that holds the most does (docs/hall.md, "Limits"). No I/O: the server closes
// what admit() says to drop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

namespace tactile::hall {

class AddressSlots {
 public:
  using Id = std::uint64_t;

  AddressSlots(std::size_t per_address, std::size_t total);

  struct Admission {
    Id id;                      // the newcomer's
    std::optional<Id> dropped;  // the one that made room for it, to be closed
  };
  Admission admit(const std::string& address);
  // A slot's holder ended (its reader went away, or it was dropped: then nothing is left
  // to do).
  void release(Id id);

  std::size_t held(const std::string& address) const;
  std::size_t size() const { return size_; }

 private:
  Id drop_oldest_of(std::map<std::string, std::deque<Id>>::iterator address);

  std::size_t per_address_, total_;
  std::map<std::string, std::deque<Id>> streams_;  // by address, oldest first
  std::map<Id, std::string> address_of_;
  std::size_t size_ = 0;
  Id next_ = 1;
};

}  // namespace tactile::hall
