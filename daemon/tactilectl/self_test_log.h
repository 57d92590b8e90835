// SPDX-License-Identifier: GPL-3.0-or-later
// The self-test log: one `self-test` record (a JSON line) appended for every self-test run
// to its end, read back by tactiled for the status's health (daemon/tactiled/
// self_test_record.h).
#pragma once

#include <string>

namespace tactile::ctl {

// $STATE_DIRECTORY/self-test.jsonl (its first directory), else
// /var/lib/tactiled/self-test.jsonl.
std::string default_self_test_log();
// Opens the log for appending (created if missing) and closes it again: a walk of 66
// steps is not made for a record that cannot be kept. Throws std::runtime_error "cannot
// open the self-test log PATH: why (--log PATH)".
void check_self_test_log(const std::string& path);
// Appends `line` and syncs it: a record is whole on disk or not there. Throws
// std::runtime_error "cannot open|write|sync the self-test log PATH...".
void append_self_test_line(const std::string& path, const std::string& line);

}  // namespace tactile::ctl
