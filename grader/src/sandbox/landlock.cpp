#include "landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace grader {

namespace {

// The rights each ABI version of Landlock knows, so that a newer right is never asked of an
// older kernel (which would refuse the whole ruleset).
std::uint64_t handled_rights(long abi) {
  std::uint64_t rights =
      LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
      LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
      LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
      LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
  if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
  (void)abi;
  return rights;
}

long abi_version() {
  static const long abi =
      ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi;
}

bool allow(int ruleset, const std::string& path, std::uint64_t rights) {
  const UniqueFd fd(::open(path.c_str(), O_PATH | O_CLOEXEC));
  if (!fd.valid()) return true;  // not there: nothing to allow
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights;
  rule.parent_fd = fd.get();
  return ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0;
}

}  // namespace

bool landlock_available() { return abi_version() >= 1; }

UniqueFd landlock_ruleset(const std::vector<std::string>& read_and_run,
                          const std::vector<std::string>& read_write,
                          const std::vector<std::string>& devices) {
  if (!landlock_available()) return UniqueFd();
  const std::uint64_t all = handled_rights(abi_version());
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = all;
  UniqueFd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0)));
  // A ruleset left open across exec would reach every program the sandbox starts.
  if (!ruleset.valid() || ::fcntl(ruleset.get(), F_SETFD, FD_CLOEXEC) != 0) return UniqueFd();
  const std::uint64_t read =
      LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
  const std::uint64_t device = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE;
  bool ok = true;
  for (const auto& p : read_and_run) ok = allow(ruleset.get(), p, read) && ok;
  for (const auto& p : read_write) ok = allow(ruleset.get(), p, all) && ok;
  for (const auto& p : devices) ok = allow(ruleset.get(), p, device) && ok;
  if (!ok) return UniqueFd();
  return ruleset;
}

}  // namespace grader
