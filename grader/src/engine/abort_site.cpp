#include "abort_site.hpp"

#include "../builder/build_stage.hpp"
#include "grader_config.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

namespace grader {

namespace {

const std::string kFramesHead = "[linattn-runner abort frames:";
constexpr std::size_t kMaxFrames = 64;     // as many as the runner prints
constexpr std::size_t kMaxLineText = 200;  // a statement, not a file folded onto one line
constexpr double kAddr2lineSeconds = 30;   // for all of one runner's aborts (below)

bool is_hex(const std::string& word) {
  return !word.empty() && word.size() <= 16 &&
         word.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string trimmed(const std::string& s) {
  const std::size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") + 1 - begin);
}

}  // namespace

std::vector<std::string> abort_frames(const std::string& output) {
  const std::size_t at = output.rfind(kFramesHead);
  if (at == std::string::npos) return {};
  const std::size_t end = output.find(']', at);
  if (end == std::string::npos) return {};
  std::istringstream words(output.substr(at + kFramesHead.size(), end - at - kFramesHead.size()));
  std::vector<std::string> frames;
  for (std::string w; words >> w && frames.size() < kMaxFrames;)
    if (is_hex(w)) frames.push_back("0x" + w);
  return frames;
}

std::string without_abort_frames(const std::string& output) {
  std::string out = output;
  for (std::size_t at = out.find("\n" + kFramesHead); at != std::string::npos;
       at = out.find("\n" + kFramesHead, at)) {
    const std::size_t end = out.find("]\n", at);
    out.erase(at, end == std::string::npos ? std::string::npos : end + 1 - at);
  }
  return out;
}

std::optional<AbortSite> site_in_answer(const std::string& answer, const std::string& exercise,
                                        const std::string& source) {
  // The file as the builder compiled it: <stage>/<ex>/<ex>.cpp (builder.cpp: build_steps).
  const std::string file = "/" + exercise + "/" + exercise + ".cpp:";
  std::istringstream lines(answer);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.rfind(file);
    if (at == std::string::npos) continue;
    const std::string number = line.substr(at + file.size(), line.find(' ', at) - at - file.size());
    if (number.empty() || number.size() > 7 ||
        number.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const int n = std::stoi(number);
    if (n < 1) continue;
    std::istringstream text(source);
    std::string wanted;
    int read = 0;
    while (read < n && std::getline(text, wanted)) ++read;
    if (read < n) return std::nullopt;  // not the file that was built
    AbortSite site;
    site.line = n;
    site.text = trimmed(wanted);
    if (site.text.size() > kMaxLineText) site.text = site.text.substr(0, kMaxLineText) + " ...";
    return site;
  }
  return std::nullopt;
}

namespace {

// addr2line's answer for one runner and one list of frames. A run that timed out or failed is
// not asked again for that runner, and each runner has kAddr2lineSeconds in all: the checks
// of a submission that aborts everywhere mostly share their frames (one answer), and a
// program made to keep addr2line busy costs its grading that much once, not once a check.
struct Answers {
  std::mutex mutex;
  std::map<std::string, std::optional<std::string>> by_frames;  // runner + frames -> answer
  std::map<std::string, double> seconds_left;                   // runner -> its budget
};

std::optional<std::string> addr2line_answer(const std::filesystem::path& runner,
                                            const std::vector<std::string>& frames,
                                            unsigned worker) {
  static Answers answers;
  std::string key = runner.string();
  for (const auto& f : frames) key += " " + f;
  double budget = 0;
  {
    const std::lock_guard<std::mutex> lock(answers.mutex);
    if (const auto known = answers.by_frames.find(key); known != answers.by_frames.end())
      return known->second;
    budget = answers.seconds_left.try_emplace(runner.string(), kAddr2lineSeconds).first->second;
  }
  std::optional<std::string> answer;
  double spent = budget;  // all of it, unless the tool returned
  if (budget > 0.5) {
    const build::Stage stage(worker);
    if (stage.put(runner, "runner")) {
      std::vector<std::string> argv = {LINATTN_ADDR2LINE, "-i", "-e", stage.in("runner")};
      argv.insert(argv.end(), frames.begin(), frames.end());
      const RunOutcome r = stage.run(argv, budget);
      if (r.ending == RunOutcome::Ending::Exited && r.exit_code == 0) {
        answer = r.output;
        spent = r.seconds;
      }
    }
  }
  const std::lock_guard<std::mutex> lock(answers.mutex);
  answers.by_frames[key] = answer;
  answers.seconds_left[runner.string()] = answer ? std::max(0.0, budget - spent) : 0.0;
  return answer;
}

}  // namespace

std::optional<AbortSite> abort_site(const std::filesystem::path& runner, const std::string& output,
                                    const std::string& exercise, const std::string& source,
                                    unsigned worker) {
  const std::vector<std::string> frames = abort_frames(output);
  if (frames.empty() || std::string(LINATTN_ADDR2LINE).empty()) return std::nullopt;
  try {
    const auto answer = addr2line_answer(runner, frames, worker);
    if (!answer) return std::nullopt;
    return site_in_answer(*answer, exercise, source);
  } catch (const std::exception&) {
    return std::nullopt;  // the message then says what it said before: a shape mismatch
  }
}

}  // namespace grader
