// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl log verify|pgn|replay FILE: the arbiter's offline checks of an arbiter log,
// no daemon needed. The chain (core/record/arbiter_log.h), the game rebuilt from the
// log's raw events and compared with what it records (core/game/resume.h): the very code
// tactiled --resume runs.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "daemon/tactilectl/command.h"

namespace po = boost::program_options;

namespace tactile::ctl {

const char* const kLogHelp = R"(NAME
    tactilectl log - check an arbiter log offline (no daemon needed)

SYNOPSIS
    tactilectl log verify [--head HASH] FILE
    tactilectl log pgn FILE
    tactilectl log replay FILE
    tactilectl log SUBCOMMAND --help

DESCRIPTION
    The arbiter log of tactiled is JSON lines, each carrying its sequence number and
    the SHA-256 of the line before it (docs/replay.md, docs/security.md).

    verify     checks the chain. Intact: prints the number of records and the head
               (the SHA-256 of the last line). Broken: prints the first broken line
               and what happened to it: changed, records removed before it, records
               swapped or moved (naming the line that belongs there), a record inserted
               or copied, a line cut short. A chain cannot show that its last records
               were changed or cut off: with --head HASH (the LogHead tag of the game's
               PGN, or a TACTILED_LOG_HEAD line of the journal) it also says which record
               that head is, and fails if it is none of them.
    pgn        prints the game as PGN, rebuilt from the log's raw events alone, with
               its LogHead tag. Fails if the chain is broken or a recorded moment
               differs from what the events make.
    replay     rebuilds the game from the raw events (hole events, buttons, the
               arbiter's commands) and names every recorded moment, phrase, clock
               switch and clock reading that differs from what they make.

EXIT STATUS
    0   verify: the chain is intact (and --head is one of its records); pgn: printed;
        replay: every recorded record is what the events make
    1   verify: the chain is broken, or --head is no record of it; pgn, replay: the
        chain is broken, a record differs, or a value is bad (the line is named);
        any: FILE cannot be read
    2   bad arguments

EXAMPLES
    tactilectl log verify /var/lib/tactiled/game-20261122-084039.jsonl
    tactilectl log verify --head 3f1a... game.jsonl
    tactilectl log pgn game.jsonl > game.pgn
    tactilectl log replay game.jsonl
)";

namespace {

std::string read_log(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error("cannot read '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines of `text` and their hashes, to find a head among them.
std::vector<std::string> line_hashes(const std::string& text) {
  std::vector<std::string> hashes;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    hashes.push_back(record::sha256_hex(std::string_view(text).substr(pos, end - pos)));
    pos = end + 1;
  }
  return hashes;
}

int verify(const std::string& path, const std::string& head, std::ostream& out) {
  const std::string text = read_log(path);
  std::size_t lines = 0;
  try {
    lines = record::verify_log(text);
  } catch (const chess::ParseError& e) {
    out << path << ": broken: " << e.what() << "\n";
    return kExitFailure;
  }
  if (lines == 0) {
    out << path << ": broken: the log is empty\n";
    return kExitFailure;
  }
  const std::vector<std::string> hashes = line_hashes(text);
  out << path << ": intact: " << lines << " records, chain unbroken\n"
      << "head " << hashes.back() << " (line " << lines << ")\n";
  if (head.empty()) return kExitOk;
  for (std::size_t i = hashes.size(); i-- > 0;) {
    if (hashes[i] != head) continue;
    if (i + 1 == hashes.size())
      out << "the head " << head << " is the last record: nothing was cut or changed after it\n";
    else
      out << "the head " << head << " is line " << i + 1 << " of " << hashes.size() << ": the "
          << hashes.size() - i - 1 << " records after it came later\n";
    return kExitOk;
  }
  out << "the head " << head
      << " is no record of this log: its last records were changed or cut off, or it is "
         "another game's log\n";
  return kExitFailure;
}

int pgn(const std::string& path, std::ostream& out) {
  const std::string text = read_log(path);
  const game::ResumedGame r = game::resume_from_log(text);  // ParseError: exit 1 in run_log
  out << chess::write_pgn(game::log_pgn(r));
  return kExitOk;
}

int replay(const std::string& path, std::ostream& out) {
  const game::LogReplay r = game::replay_log(read_log(path));
  for (const game::LogDifference& d : r.differences)
    out << "line " << d.line << ": " << d.why << "\n";
  out << path << ": " << r.compared << " recorded moments and outputs compared, "
      << r.differences.size() << " differ from what the events make; "
      << r.game.session.moves_made() << " half-moves, result " << r.game.session.record().result
      << "\n";
  return r.differences.empty() ? kExitOk : kExitFailure;
}

}  // namespace

int run_log(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options;
  options.add_options()("help,h", "")("head", po::value<std::string>(), "")(
      "subcommand", po::value<std::string>(), "")("file", po::value<std::string>(), "");
  po::positional_options_description positional;
  positional.add("subcommand", 1).add("file", 1);
  const po::variables_map vm = parse_arguments(args, options, positional);
  if (vm.count("help")) {
    out << kLogHelp;
    return kExitOk;
  }
  if (!vm.count("subcommand")) throw UsageError{"no subcommand given: verify, pgn or replay"};
  const std::string sub = vm["subcommand"].as<std::string>();
  if (sub != "verify" && sub != "pgn" && sub != "replay")
    throw UsageError{"unknown subcommand '" + sub + "': verify, pgn or replay"};
  if (!vm.count("file")) throw UsageError{sub + " needs the log FILE"};
  if (vm.count("head") && sub != "verify") throw UsageError{"--head is for log verify"};
  const std::string path = vm["file"].as<std::string>();
  try {
    if (sub == "verify") {
      std::string head = vm.count("head") ? vm["head"].as<std::string>() : "";
      if (vm.count("head") &&
          (head.size() != 64 || head.find_first_not_of("0123456789abcdef") != std::string::npos))
        throw UsageError{"--head: '" + head.substr(0, 80) +
                         "' is not a SHA-256 (64 lowercase hex digits)"};
      return verify(path, head, out);
    }
    if (sub == "pgn") return pgn(path, out);
    return replay(path, out);
  } catch (const chess::ParseError& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace tactile::ctl
