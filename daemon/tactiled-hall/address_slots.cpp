// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/address_slots.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

namespace tactile::hall {

AddressSlots::AddressSlots(std::size_t per_address, std::size_t total)
    : per_address_(std::max<std::size_t>(per_address, 1)),
      total_(std::max<std::size_t>(total, 1)) {}

double AddressSlots::returns_now(const Address& a) const {
  return a.returns * std::exp2(-static_cast<double>(tick_ - a.tick) / kHalfLife);
}

AddressSlots::Addresses::iterator AddressSlots::room_maker(Addresses::iterator newcomer) {
  // The address that holds the most (the newcomer's counted with it); of those that hold
  // as many, the one that came back the most lately, then (the newcomer's last) the one
  // whose newest is newest: a flood of reconnections makes room among itself, and an
  // address that holds its stream and stays (a viewer) keeps it.
  auto best = addresses_.end();
  std::tuple<std::size_t, double, bool, Id> best_key{};
  for (auto it = addresses_.begin(); it != addresses_.end(); ++it) {
    const bool own = it == newcomer;
    if (it->second.held.empty() && !own) continue;
    const std::tuple<std::size_t, double, bool, Id> key{
        it->second.held.size() + (own ? 1 : 0), returns_now(it->second), !own,
        it->second.held.empty() ? 0 : it->second.held.back()};
    if (best == addresses_.end() || key > best_key) {
      best = it;
      best_key = key;
    }
  }
  return best;
}

AddressSlots::Admission AddressSlots::admit(const std::string& address) {
  Admission a{0, std::nullopt};
  const auto drop_oldest_of = [&](Address& at) {
    a.dropped = at.held.front();
    at.held.pop_front();
    address_of_.erase(*a.dropped);
    --size_;
  };
  const auto own = addresses_.try_emplace(address).first;
  const bool came_back = own->second.tick != 0;
  ++tick_;
  own->second.returns = returns_now(own->second) + (came_back ? 1 : 0);
  own->second.tick = tick_;
  if (own->second.held.size() >= per_address_) {
    drop_oldest_of(own->second);
  } else if (size_ >= total_) {
    const auto maker = room_maker(own);
    if (maker == own && own->second.held.empty()) {
      a.refused = true;  // it came back more than any holder: it takes no one's room
      if (addresses_.size() > kRemembered) forget_some();
      return a;
    }
    drop_oldest_of(maker->second);
  }
  a.id = next_++;
  own->second.held.push_back(a.id);
  address_of_[a.id] = address;
  ++size_;
  if (addresses_.size() > kRemembered) forget_some();
  return a;
}

void AddressSlots::forget_some() {
  // The addresses that hold nothing, the least lately admitted first, until a quarter of
  // the room is free again: the count is kept for the addresses that may come back.
  std::vector<std::pair<double, Addresses::iterator>> idle;
  for (auto it = addresses_.begin(); it != addresses_.end(); ++it)
    if (it->second.held.empty()) idle.emplace_back(returns_now(it->second), it);
  std::sort(idle.begin(), idle.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [count, it] : idle) {
    if (addresses_.size() <= kRemembered * 3 / 4) break;
    addresses_.erase(it);
  }
}

void AddressSlots::release(Id id) {
  const auto at = address_of_.find(id);
  if (at == address_of_.end()) return;
  auto& held = addresses_.at(at->second).held;
  held.erase(std::find(held.begin(), held.end(), id));
  address_of_.erase(at);
  --size_;
}

std::size_t AddressSlots::held(const std::string& address) const {
  const auto at = addresses_.find(address);
  return at == addresses_.end() ? 0 : at->second.held.size();
}

}  // namespace tactile::hall
