#include "program_image.hpp"

#include "../util/unique_fd.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

namespace grader {

std::optional<std::uint64_t> program_image_bytes(const std::filesystem::path& program) {
  const UniqueFd file(::open(program.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid()) return std::nullopt;
  auto read_at = [fd = file.get()](void* to, std::size_t size, std::uint64_t at) {
    return ::pread(fd, to, size, static_cast<off_t>(at)) == static_cast<ssize_t>(size);
  };
  std::optional<std::uint64_t> total;
  Elf64_Ehdr header{};
  if (read_at(&header, sizeof header, 0) && std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
      header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_phentsize == sizeof(Elf64_Phdr) &&
      header.e_phnum < 4096) {
    constexpr std::uint64_t kPage = 4096;
    std::uint64_t sum = 0;
    bool whole = true;
    for (unsigned i = 0; i < header.e_phnum && whole; ++i) {
      Elf64_Phdr segment{};
      whole = read_at(&segment, sizeof segment, header.e_phoff + i * sizeof segment);
      if (!whole || segment.p_type != PT_LOAD) continue;
      const std::uint64_t start = segment.p_vaddr & ~(kPage - 1);
      const std::uint64_t end = (segment.p_vaddr + segment.p_memsz + kPage - 1) & ~(kPage - 1);
      if (end >= start) sum += end - start;
    }
    if (whole) total = sum;
  }
  return total;
}

}  // namespace grader
