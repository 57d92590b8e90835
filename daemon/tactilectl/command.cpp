// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/command.h"

#include <stdexcept>
#include <string>

namespace po = boost::program_options;

namespace tactile::ctl {

po::variables_map parse_arguments(const std::vector<std::string>& args,
                                  const po::options_description& options,
                                  const po::positional_options_description& positional) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError{e.what()};
  }
  return vm;
}

long long number_argument(const po::variables_map& vm, const std::string& key, long long low,
                          long long high, long long fallback) {
  if (!vm.count(key)) return fallback;
  const std::string text = vm[key].as<std::string>();
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < low || v > high)
    throw UsageError{"--" + key + " '" + text + "' is not a number from " + std::to_string(low) +
                     " to " + std::to_string(high)};
  return v;
}

}  // namespace tactile::ctl
