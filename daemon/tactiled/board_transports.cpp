// SPDX-License-Identifier: GPL-3.0-or-later
// The table of board transports: the one place that lists them (board_transport.h), and
// the transports a program's own file registers after them.
#include <filesystem>
#include <vector>

#include "daemon/tactiled/board_transport.h"

namespace tactile::daemon {

// Each defined in its link file.
extern const BoardTransport kGpioTransport;
extern const BoardTransport kSerialTransport;
extern const BoardTransport kScriptTransport;
extern const BoardTransport kDgtTransport;

namespace {

// Made on first use: a registration (a static object of another file) may come before
// anything else of this file has run.
std::vector<const BoardTransport*>& table() {
  static std::vector<const BoardTransport*> transports = {
      &kGpioTransport,
      &kSerialTransport,
      &kScriptTransport,
      &kDgtTransport,
  };
  return transports;
}

}  // namespace

BoardTransportRegistration::BoardTransportRegistration(const BoardTransport& transport) {
  table().push_back(&transport);
}

constinit const BoardKind BoardKind::Gpio{kGpioTransport};
constinit const BoardKind BoardKind::Serial{kSerialTransport};
constinit const BoardKind BoardKind::Script{kScriptTransport};

std::span<const BoardTransport* const> board_transports() {
  return table();
}

const BoardTransport* find_board_transport(std::string_view name) {
  for (const BoardTransport* t : table())
    if (t->name == name) return t;
  return nullptr;
}

std::string board_transport_names(std::string_view last) {
  std::string names;
  const std::size_t n = table().size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) names += i + 1 == n ? std::string(last) : std::string(", ");
    names += table()[i]->name;
  }
  return names;
}

std::string with_transport_names(std::string_view text) {
  std::string out(text), choices;
  for (const BoardTransport* t : table())
    choices += (choices.empty() ? "" : " | ") + std::string(t->name);
  for (const auto& [mark, names] : {std::pair{std::string_view("%T"), board_transport_names()},
                                    std::pair{std::string_view("%|"), choices}})
    for (std::size_t at = 0; (at = out.find(mark, at)) != std::string::npos; at += names.size())
      out.replace(at, mark.size(), names);
  return out;
}

std::unique_ptr<BoardLink> open_board_link(const BoardSetup& setup, const LinkRequest& request) {
  return board_transport(setup.board).open(setup, request);
}

std::string board_driver_name(const BoardSetup& setup, const std::string& link_status) {
  const BoardTransport& t = board_transport(setup.board);
  return std::string(t.name) + (t.finds_board ? ": " + link_status : "");
}

std::string absolute_source_path(const std::string& path) {
  // "" for none (a config built without its file, as tests do).
  if (path.empty()) return std::string();
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  return " " + (ec ? path : p.string());
}

}  // namespace tactile::daemon
