// SPDX-License-Identifier: GPL-3.0-or-later
// The files live mode writes, checked before it starts: an output never lands on another
// output, on a file that is not a regular file (a FIFO, a device, a directory) or on a
// file the daemon reads (its config, a board's script, wiring or port: config.h,
// input_files). Files are compared by device and inode, so no spelling of a path (a link,
// "./", "..") slips past.
#pragma once

#include <string>
#include <vector>

namespace tactile::daemon {

// One file by what it is to the daemon ("PGN", "script-b") and its path.
struct NamedPath {
  std::string name;
  std::string path;
};

// Why live mode may not write `outputs` ("" when it may): two outputs name one file, an
// output is an existing file that is not a regular file, or it is one of `inputs`. Empty
// paths are skipped.
std::string output_refusal(const std::vector<NamedPath>& outputs,
                           const std::vector<NamedPath>& inputs);

// Why live mode may not use `ports` as DGT ports (docs/dgt.md; "" when it may): two ports
// name one file, or a port is one of `outputs` or `inputs`. A port may be a device: it is
// read and written, never overwritten. Empty paths are skipped.
std::string dgt_port_refusal(const std::vector<NamedPath>& ports,
                             const std::vector<NamedPath>& outputs,
                             const std::vector<NamedPath>& inputs);

}  // namespace tactile::daemon
