#include "oracle_cache.hpp"

#include "../builder/build_cache.hpp"
#include "../util/mapped_file.hpp"
#include "../util/sha256.hpp"

#include "../../common/wire.hpp"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace grader {

namespace {

// The GNU build ID of the program itself (a hash the linker takes of its contents), as hex;
// empty when it has none.
std::string program_build_id(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info.dlpi_addr + ph.p_vaddr);
    const char* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const char* desc = name + ((note.n_namesz + 3) & ~3u);
      if (desc + note.n_descsz > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        std::ostringstream hex;
        for (unsigned j = 0; j < note.n_descsz; ++j)
          hex << "0123456789abcdef"[(desc[j] >> 4) & 15] << "0123456789abcdef"[desc[j] & 15];
        return hex.str();
      }
      at = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return "";
}

// What decides every case besides the check and the seed: the judge's build ID and the
// shared libraries it runs on; empty when the judge has no build ID.
const std::string& code_identity() {
  static const std::string identity = [] {
    std::string text;
    bool have_id = false;
    auto visit = [&](dl_phdr_info* info) {
      const std::string name = info->dlpi_name ? info->dlpi_name : "";
      if (name.empty() && !have_id) {  // the program itself comes first
        const std::string id = program_build_id(*info);
        if (id.empty()) return;
        have_id = true;
        text += "program " + id + "\n";
        return;
      }
      struct stat st {};
      if (!name.empty() && ::stat(name.c_str(), &st) == 0)
        text += "library " + name + " " + std::to_string(st.st_size) + " " +
                std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "\n";
    };
    ::dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
          (*static_cast<decltype(visit)*>(data))(info);
          return 0;
        },
        &visit);
    return have_id ? text : std::string();
  }();
  return identity;
}

// The first part of the names of this check's case files: one file per check and seed.
std::string case_prefix(const std::string& exercise, const Check& check, std::uint64_t seed) {
  Sha256 h;
  h.add(exercise);
  h.add(check.name);
  h.add(check.function);
  h.add(std::to_string(seed));
  return "case-" + h.hex().substr(0, 24) + "-";
}

// Where this check's case at this seed is kept by this judge; empty when nothing is.
fs::path case_file(const std::string& exercise, const Check& check, std::uint64_t seed) {
  if (code_identity().empty()) return {};
  Sha256 h;
  h.add(code_identity());
  return build::cache_entry(exercise, "", "").dir / "oracle" /
         (case_prefix(exercise, check, seed) + h.hex().substr(0, 16) + ".cbor");
}

}  // namespace

std::optional<OracleCase> cached_oracle_case(const std::string& exercise, const Check& check,
                                             std::uint64_t seed) {
  try {
    const fs::path file = case_file(exercise, check, seed);
    if (file.empty()) return std::nullopt;
    const MappedFile bytes(file);  // written only by renaming (keep_oracle_case)
    if (!bytes.valid()) return std::nullopt;
    json kept = wire::decode_split(bytes.data(), bytes.size());
    OracleCase c;
    c.request = std::move(kept.at("request"));
    c.expected = std::move(kept.at("expected"));
    // A time check's case stays packed, as the engine keeps it; the others' matrices become
    // arrays of numbers again, as the oracle made them.
    if (!check.timed) {
      wire::unpack(c.request);
      wire::unpack(c.expected);
    }
    std::error_code ec;
    fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // recently used (prune)
    return c;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: made again, and written over
  }
}

void keep_oracle_case(const std::string& exercise, const Check& check, std::uint64_t seed,
                      const OracleCase& oracle_case) {
  try {
    const fs::path file = case_file(exercise, check, seed);
    if (file.empty()) return;
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    json kept = json::object();  // packed straight from the case, not copied first
    kept["request"] = wire::pack(oracle_case.request);
    kept["expected"] = wire::pack(oracle_case.expected);
    const std::vector<std::uint8_t> bytes = wire::encode_split(kept);
    if (!build::write_file_atomically(file, std::string(bytes.begin(), bytes.end()))) return;
    // The same check's case kept by an earlier build of the judge is stale: one file per check
    // and seed, whatever the number of rebuilds (a time check's case is tens of MB).
    const std::string prefix = case_prefix(exercise, check, seed);
    for (auto it = fs::directory_iterator(file.parent_path(), ec);
         !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind(prefix, 0) == 0 && it->path() != file &&
          name.find(".tmp-") == std::string::npos) {
        std::error_code ignored;
        fs::remove(it->path(), ignored);
      }
    }
  } catch (const std::exception&) {
    // Not kept: the next run makes it again.
  }
}

}  // namespace grader
