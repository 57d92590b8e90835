// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/output_files.h"

#include <sys/stat.h>

#include "daemon/files/safe_file.h"

namespace tactile::daemon {
namespace {

// What a file that is no regular file is, for the message; "" for a regular file or none.
std::string not_regular(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";  // not there yet (or a dangling link)
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string output_refusal(const std::vector<NamedPath>& outputs,
                           const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (out.path.empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[j].path.empty() && same_file(out.path, outputs[j].path))
        return "the " + out.name + " and the " + outputs[j].name + " name one file ('" + out.path +
               "'): each needs its own path";
    // A FIFO would be written into (the script board's above all), a device fed a PGN.
    if (const std::string kind = not_regular(out.path); !kind.empty())
      return "the " + out.name + " '" + out.path + "' is " + kind +
             ": an output must be a regular file";
    for (const NamedPath& in : inputs)
      if (!in.path.empty() && same_file(out.path, in.path))
        return "'" + out.path + "' is the " + in.name + " file: an output would overwrite it";
  }
  return "";
}

std::string dgt_port_refusal(const std::vector<NamedPath>& ports,
                             const std::vector<NamedPath>& outputs,
                             const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const NamedPath& port = ports[i];
    if (port.path.empty()) continue;
    for (std::size_t j = i + 1; j < ports.size(); ++j)
      if (!ports[j].path.empty() && same_file(port.path, ports[j].path))
        return "the " + port.name + " and the " + ports[j].name + " name one file ('" + port.path +
               "'): each board needs its own port";
    for (const NamedPath& out : outputs)
      if (!out.path.empty() && same_file(port.path, out.path))
        return "the " + port.name + " '" + port.path + "' is the " + out.name +
               ": a DGT port needs a path of its own";
    for (const NamedPath& in : inputs)
      if (!in.path.empty() && same_file(port.path, in.path))
        return "the " + port.name + " '" + port.path + "' is the " + in.name +
               " file: a DGT port needs a path of its own";
  }
  return "";
}

}  // namespace tactile::daemon
