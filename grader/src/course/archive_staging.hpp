// Where grade-all meets uploaded archives (archive_unpack.hpp unpacks one): a submission folder
// that holds archives, or a loose archive in the class folder ("kim.zip" is kim's submission),
// is graded from a folder the grader makes, never from the student's own.
#pragma once

#include "archive_unpack.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace grader {

// "kim.zip" -> "kim", "kim.tar.gz" -> "kim": a loose archive's submission name.
std::string archive_submission_name(const std::string& filename);

struct StagedSubmission {
  std::filesystem::path folder;    // what to grade: the submission itself when it holds no archive
  std::vector<std::string> notes;  // for the report: what was unpacked, what was refused and why
};

// `archives` (files, not links) unpacked each into staging/<archive's name>/, and, when
// `submission` is a folder, a copy of every file the file finder takes or sees competing there
// for one of `exercises` (so that loose files and archives are graded together, and two
// copies of one file, loose and archived, compete as they would in one folder). `staging` is
// made anew. `limits` hold for all of the archives together (bytes and entries), not for each.
StagedSubmission stage_archives(const std::filesystem::path& submission,
                                const std::vector<std::filesystem::path>& archives,
                                const std::filesystem::path& staging,
                                const std::vector<std::string>& exercises,
                                const ArchiveLimits& limits = {});

// The archives at the top of a submission folder (not links, not hidden), sorted: those
// grade-all unpacks, and those of a kind it does not (other_archive_kind), which
// stage_archives names in a note ("hw.rar was not unpacked: ...") instead of unpacking.
std::vector<std::filesystem::path> archives_in(const std::filesystem::path& submission);

}  // namespace grader
