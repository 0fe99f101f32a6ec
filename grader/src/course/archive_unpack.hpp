// Uploaded archives (.zip, .tar.gz, .tgz): a student's archive is their submission. grade-all
// unpacks each one, with libarchive, into a folder the grader made for it (never into the
// student's folder), and the file finder then looks there as anywhere else.
//
// An archive is unpacked whole or not at all. It is refused, with a note that says why, when
//   - an entry's path is absolute or climbs out of the folder ("../x": zip-slip);
//   - an entry is a link (symbolic or hard) or anything but a plain file or a folder;
//   - its files hold more than `max_bytes` in all, counted as the bytes come out (the sizes an
//     archive declares are not believed), so that a zip bomb stops at the limit;
//   - it has more than `max_entries` entries, or a path deeper than `max_depth` folders;
//   - libarchive cannot read it.
// Entry names are read as UTF-8 whatever the process's locale; an entry whose name is not
// UTF-8 (a legacy code page) is left out and named, and the rest unpacks.
// Archives inside an archive are left as files (never unpacked in turn).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace grader {

struct ArchiveLimits {
  std::uint64_t max_bytes = 64ull << 20;  // 64 MiB unpacked: far above five source files
  std::size_t max_entries = 2000;
  int max_depth = 12;  // the file finder looks no deeper
};

// Whether a file name is one of the archive kinds grade-all unpacks (by its ending, any case).
bool is_archive_name(const std::string& filename);
// An archive of a kind grade-all does not unpack (.rar, .7z, .tar.xz, ...): its ending (".rar"),
// or "" for any other name. Such an upload is named in the notes, never passed over in silence.
std::string other_archive_kind(const std::string& filename);

struct UnpackResult {
  bool ok = false;
  std::string problem;  // why it was refused: "kim.zip was not unpacked: ..."
  std::size_t files = 0;
  std::size_t entries = 0;  // files, folders and the rest, as counted against max_entries
  std::uint64_t bytes = 0;
  // Entries left out of an archive that was unpacked: a name that is not UTF-8 (a legacy code
  // page). Said in the notes; the other entries are graded.
  std::vector<std::string> skipped;
};

// Unpacks `archive` into `into`, which must not exist yet (it is made here, and removed again
// when the archive is refused).
UnpackResult unpack_archive(const std::filesystem::path& archive, const std::filesystem::path& into,
                            const ArchiveLimits& limits = {});

}  // namespace grader
