// SPDX-License-Identifier: GPL-3.0-or-later
// Every file tactiled writes (arbiter log, PGN, speech WAV) is created here, so that a
// link or a file someone else placed in a shared directory cannot redirect it
// (docs/security.md): names are resolved relative to the directory opened once, a new
// file is created with O_EXCL (which never follows a link), an existing one is replaced
// by renaming a fresh temporary file over it (the link, if one was there, is replaced,
// never followed). Files are created 0640 (less what the umask takes away): a player's
// game is not everyone's to read before it is published.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace tactile::daemon {

constexpr mode_t kRecordFileMode = 0640;

// Writes all of `text` to `fd` (a signal may interrupt a write); false on an error, with
// errno set.
bool write_all(int fd, std::string_view text);

// Creates `path`, which must not exist (not even as a dangling link), for writing; the
// descriptor is returned open (O_CLOEXEC). Throws std::runtime_error "cannot create WHAT
// 'PATH': why", or "WHAT 'PATH' exists already" for an existing name.
int create_new_file(const std::string& path, std::string_view what);

// Opens the existing regular file `path` for appending; a link is refused (O_NOFOLLOW).
// Throws std::runtime_error "cannot open WHAT 'PATH': why".
int open_existing_for_append(const std::string& path, std::string_view what);

// Replaces `path` by a file holding `text`, all or nothing: a temporary file with a
// random name (O_EXCL) beside it is written and synced, renamed over `path`, and the
// directory synced. A reader, a crash or a power cut sees the old file or the new one,
// never half of one. Throws std::runtime_error "cannot write WHAT 'PATH': why".
// `synced` false: the same, without the two syncs, for a file that is made again from
// elsewhere (tactiled-hall's games' files, rebuilt from the records): a reader still sees
// the old file or the new one, a power cut may lose the last version.
void replace_file(const std::string& path, std::string_view text, std::string_view what,
                  bool synced = true);

// Whether `a` and `b` name one file: the same device and inode where both exist, else
// the same path once made absolute and its links and dots resolved.
bool same_file(const std::string& a, const std::string& b);

}  // namespace tactile::daemon
