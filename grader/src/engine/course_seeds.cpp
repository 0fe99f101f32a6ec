#include "course_seeds.hpp"

#include "../util/sha256.hpp"
#include "../util/unique_fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace grader {

std::string course_key(const std::filesystem::path& kit_dir) {
  const std::filesystem::path file = kit_dir / "course-key";
  {
    std::ifstream in(file);
    std::string key;
    if (in >> key && key.size() >= 32) return key;
  }
  unsigned char random[16];
  {
    const UniqueFd fd(::open("/dev/urandom", O_RDONLY | O_CLOEXEC));
    if (!fd.valid() ||
        ::read(fd.get(), random, sizeof random) != static_cast<ssize_t>(sizeof random))
      throw std::runtime_error("cannot draw a course key from /dev/urandom");
  }
  std::ostringstream hex;
  for (unsigned char b : random) hex << "0123456789abcdef"[b >> 4] << "0123456789abcdef"[b & 15];
  // Written once, readable by its owner only; a second grader starting at the same moment
  // either wins (O_EXCL) or reads the winner's key.
  UniqueFd out(::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (out.valid()) {
    const std::string text = hex.str() + "\n";
    const bool written =
        ::write(out.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
    // The key is the course's secret: a close that fails may have lost it on the way to disk.
    const bool ok = written && ::close(out.release()) == 0;
    if (!ok) throw std::runtime_error("cannot write " + file.string());
    return hex.str();
  }
  std::ifstream in(file);
  std::string key;
  if (in >> key && key.size() >= 32) return key;
  throw std::runtime_error("cannot read or make the course key " + file.string());
}

namespace {

// 1 .. 2^31 - 1 from the first 32 bits of a SHA-256.
std::uint64_t seed_of(const std::string& text) {
  Sha256 h;
  h.add(text);
  const std::uint64_t value = std::stoull(h.hex().substr(0, 8), nullptr, 16) & 0x7fffffffu;
  return value == 0 ? 1 : value;
}

}  // namespace

std::uint64_t course_seed(const std::string& key, const std::string& exercise,
                          const std::string& check, std::uint64_t own_seed) {
  return seed_of(key + "\n" + exercise + "/" + check + "\n" + std::to_string(own_seed));
}

std::uint64_t student_seed(const std::string& key, const std::string& student,
                           const std::string& exercise, const std::string& check,
                           std::uint64_t own_seed) {
  const auto first = student.find_first_not_of(" \t\r\n");
  const std::string id =
      first == std::string::npos
          ? std::string()
          : student.substr(first, student.find_last_not_of(" \t\r\n") - first + 1);
  // "student" and a newline keep an id from posing as part of the check's name.
  return seed_of(key + "\nstudent " + id + "\n" + exercise + "/" + check + "\n" +
                 std::to_string(own_seed));
}

}  // namespace grader
