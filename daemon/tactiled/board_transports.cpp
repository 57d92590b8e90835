// SPDX-License-Identifier: GPL-3.0-or-later
// The table of board transports: the one place that lists them (board_transport.h).
#include <filesystem>

#include "core/board/switch_map.h"
#include "core/chess/error.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/board_transport.h"

namespace tactile::daemon {

// Each defined in its link file.
extern const BoardTransport kGpioTransport;
extern const BoardTransport kSerialTransport;
extern const BoardTransport kScriptTransport;
extern const BoardTransport kDgtTransport;

namespace {

constexpr const BoardTransport* kTransports[] = {
    &kGpioTransport,
    &kSerialTransport,
    &kScriptTransport,
    &kDgtTransport,
};

}  // namespace

constinit const BoardKind BoardKind::Gpio{kGpioTransport};
constinit const BoardKind BoardKind::Serial{kSerialTransport};
constinit const BoardKind BoardKind::Script{kScriptTransport};

std::span<const BoardTransport* const> board_transports() {
  return kTransports;
}

const BoardTransport* find_board_transport(std::string_view name) {
  for (const BoardTransport* t : kTransports)
    if (t->name == name) return t;
  return nullptr;
}

std::string board_transport_names(std::string_view last) {
  std::string names;
  const std::size_t n = std::size(kTransports);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) names += i + 1 == n ? std::string(last) : std::string(", ");
    names += kTransports[i]->name;
  }
  return names;
}

std::string with_transport_names(std::string_view text) {
  std::string out(text), choices;
  for (const BoardTransport* t : kTransports)
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

void read_wiring(const BoardSettings& settings, BoardSetup& setup) {
  const Setting* wiring = settings.find("wiring");
  if (!wiring) return;
  setup.wiring_path = wiring->value;
  try {
    setup.switch_map = board::parse_switch_map(
        read_text_file(wiring->value, "mapping file", kMaxSettingsFileBytes));
  } catch (const chess::ParseError& e) {
    settings.fail(*wiring, "wiring", wiring->value + ": " + e.what());
  }
}

}  // namespace tactile::daemon
