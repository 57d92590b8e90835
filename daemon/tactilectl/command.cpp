#include "daemon/tactilectl/command.h"

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

}  // namespace tactile::ctl
