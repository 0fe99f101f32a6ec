// Which submissions' files for an exercise are alike, for a person to look at (it never changes
// a score). Files are compared as MOSS and JPlag compare programs: not as bytes but as streams of
// tokens, normalized so that the usual disguises of a copy change nothing, and a pair is scored
// by the share of its tokens that lie in runs both files hold.
//
// The stream (tokens): comments, whitespace, line ends, line continuations and a byte-order
// mark are dropped; every identifier becomes one placeholder token, so renaming variables or
// helpers (consistently or not) changes nothing; keywords, operators, punctuation and literals
// are kept as written (a changed constant is a real change).
//
// The comparison: each run of kRun consecutive tokens (a k-gram) is hashed. A token of file A
// matches file B when a k-gram that covers it is also one of B's, and is not one of the
// exercise's stub: the code every student starts from says nothing about copying, so its
// tokens are neither matched nor counted. share = (matched tokens of A + of B) / (counted tokens
// of A + of B), JPlag's average similarity. What a report carries of a file is its k-grams'
// hashes and token count (grade_shards.hpp), so merge-grades compares files it never read.
//
// Cost: per exercise, each pair's sorted k-gram lists are intersected: 5 s for 300 students of
// 2,000-token files (45,000 pairs) on a 2-core machine busy compiling, small beside grading
// them. Limits: reordering independent statements, or padding a copy with unrelated code,
// lowers the share (the runs stay, the count grows); a short exercise that leaves few ways to
// write it can make honest pairs alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace grader::similarity {

inline constexpr std::size_t kRun = 10;           // tokens in a k-gram (JPlag's C++ default is 12)
inline constexpr double kReportShare = 0.75;      // pairs at least this alike are reported
inline constexpr std::size_t kMaxTokens = 50000;  // a file's tokens beyond these are not compared

// The normalized token stream of a C++ source (see above); "ID" stands for every identifier.
std::vector<std::string> tokens(const std::string& source);
// SHA-256 (hex) of the normalized stream: equal for files that differ only in what it drops.
std::string digest(const std::string& source);
// SHA-256 (hex) of the stream with every name kept as written: equal only for files that
// differ in whitespace and comments alone (a stub left as handed out, say).
std::string exact_digest(const std::string& source);

// What a file is compared by: its token count and the hash of each k-gram, in order.
struct Fingerprint {
  std::size_t tokens = 0;
  std::vector<std::uint32_t> kgrams;
};
Fingerprint fingerprint(const std::string& source);

struct Pair {
  std::string a, b;  // submissions, a < b
  double share = 0;  // 0..1
  std::size_t matched_a = 0, counted_a = 0, matched_b = 0, counted_b = 0;
};
// Every pair of `files` (submission -> fingerprint) at least `threshold` alike, the most alike
// first (ties by name), against the stub's fingerprint. A file that is all stub is left out.
std::vector<Pair> similar_pairs(const std::map<std::string, Fingerprint>& files,
                                const Fingerprint& stub, double threshold = kReportShare);

}  // namespace grader::similarity
