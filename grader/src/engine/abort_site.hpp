// The line of the student's file where a runner aborted (an Eigen assertion, mostly: a shape
// mismatch), from the frames the runner prints when it aborts (grader/runner/abort_frames.hpp).
// addr2line turns them into file:line, inlined calls unwound, in a build stage of its own like
// every tool that reads the student's program (the program is hostile input); the first line
// in the student's file is the statement that stopped.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace grader {

struct AbortSite {
  int line = 0;      // 1-based, in the student's file
  std::string text;  // that line, trimmed, as the student wrote it (shown escaped)
};

// The program offsets of the last frames line in `output` (the student's own prints cannot
// come after the runner's, which is the last thing it writes); none without one.
std::vector<std::string> abort_frames(const std::string& output);

// `output` without the frames lines: the report shows what the student's code printed.
std::string without_abort_frames(const std::string& output);

// The first line of `exercise`'s file among addr2line's answer for the frames (its lines are
// "path:line" or "path:line (discriminator n)", one per frame and inlined call, innermost
// first), with its text from `source`.
std::optional<AbortSite> site_in_answer(const std::string& answer, const std::string& exercise,
                                        const std::string& source);

// Runs addr2line on `runner` for the frames of `output` in a stage of `worker`; none when there
// are no frames, the tool is missing or failed, or no frame is in the student's file.
std::optional<AbortSite> abort_site(const std::filesystem::path& runner, const std::string& output,
                                    const std::string& exercise, const std::string& source,
                                    unsigned worker);

}  // namespace grader
