// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/address_slots.h"

#include <algorithm>

namespace tactile::hall {

AddressSlots::AddressSlots(std::size_t per_address, std::size_t total)
    : per_address_(std::max<std::size_t>(per_address, 1)),
      total_(std::max<std::size_t>(total, 1)) {}

AddressSlots::Id AddressSlots::drop_oldest_of(std::map<std::string, std::deque<Id>>::iterator at) {
  const Id id = at->second.front();
  at->second.pop_front();
  address_of_.erase(id);
  --size_;
  if (at->second.empty()) streams_.erase(at);
  return id;
}

AddressSlots::Admission AddressSlots::admit(const std::string& address) {
  Admission a{next_++, std::nullopt};
  auto own = streams_.find(address);
  if (own != streams_.end() && own->second.size() >= per_address_) {
    a.dropped = drop_oldest_of(own);
  } else if (size_ >= total_) {
    // The address that holds the most; of several, the one whose oldest stream is oldest
    // (ids grow with time), so the choice does not depend on how addresses sort.
    auto most = streams_.begin();
    for (auto it = streams_.begin(); it != streams_.end(); ++it)
      if (it->second.size() > most->second.size() ||
          (it->second.size() == most->second.size() && it->second.front() < most->second.front()))
        most = it;
    a.dropped = drop_oldest_of(most);
  }
  streams_[address].push_back(a.id);
  address_of_[a.id] = address;
  ++size_;
  return a;
}

void AddressSlots::release(Id id) {
  const auto at = address_of_.find(id);
  if (at == address_of_.end()) return;
  const auto own = streams_.find(at->second);
  own->second.erase(std::find(own->second.begin(), own->second.end(), id));
  if (own->second.empty()) streams_.erase(own);
  address_of_.erase(at);
  --size_;
}

std::size_t AddressSlots::held(const std::string& address) const {
  const auto at = streams_.find(address);
  return at == streams_.end() ? 0 : at->second.size();
}

}  // namespace tactile::hall
