// SPDX-License-Identifier: GPL-3.0-or-later
// Who may hold the hall page's connections, and its event streams among them: at most
// per_address from one address and total in all, so that a viewer is always served and
// keeps what it holds however many addresses connect. A newcomer never waits: at its
// address's cap the address's own oldest makes room (a page reloaded); at the total, the
// address that holds the most does (its oldest), and of those that hold as many, the one
// that came back the most lately (its admissions after its first, counted with a decay),
// then the one admitted last. The newcomer's own address is one of them: a newcomer whose
// address came back more than every holder's is refused, so past `total` addresses of one
// stream each, those that reconnect as soon as they are closed take no one's room, and a
// stream that stays (a viewer's, old or just come) keeps it (docs/hall.md, "Limits"). No
// I/O and no clock: the server closes what admit() says, time counted in admissions.
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
  // An address's returns count half after this many admissions (of any address).
  static constexpr double kHalfLife = 1024;
  // Addresses remembered with nothing held (their count of admissions), at most.
  static constexpr std::size_t kRemembered = 4096;

  AddressSlots(std::size_t per_address, std::size_t total);

  struct Admission {
    Id id;                      // the newcomer's (0 when refused)
    std::optional<Id> dropped;  // the one that made room for it, to be closed
    bool refused = false;       // the newcomer is not taken: to be closed at once
  };
  Admission admit(const std::string& address);
  // A slot's holder ended (its reader went away, or it was dropped: then nothing is left
  // to do).
  void release(Id id);

  std::size_t held(const std::string& address) const;
  std::size_t size() const { return size_; }

 private:
  struct Address {
    std::deque<Id> held;     // oldest first
    double returns = 0;      // admissions after its first, decayed, as of `tick`
    std::uint64_t tick = 0;  // the admission that last counted here; 0: never admitted
  };
  using Addresses = std::map<std::string, Address>;
  double returns_now(const Address& a) const;
  Addresses::iterator room_maker(Addresses::iterator newcomer);
  void forget_some();

  std::size_t per_address_, total_;
  Addresses addresses_;
  std::map<Id, std::string> address_of_;
  std::size_t size_ = 0;
  Id next_ = 1;
  std::uint64_t tick_ = 0;  // admissions so far
};

}  // namespace tactile::hall
