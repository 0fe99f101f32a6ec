// A file's bytes mapped read-only, for the judge's own large reads (a kept oracle case, tens of
// MB): the page cache's own pages, all mapped by one call (MAP_POPULATE), where read_file would
// copy them into as many new pages, each a page fault. Only for files the judge alone writes,
// and only ever by renaming a whole new file into place: a file cut short while mapped would
// end the judge with SIGBUS.
#pragma once

#include "unique_fd.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace grader {

class MappedFile {
 public:
  // Not valid() when the file cannot be opened or mapped, or is empty.
  explicit MappedFile(const std::filesystem::path& path) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat st {};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
      return;
    void* at = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ,
                      MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
    if (at == MAP_FAILED) return;
    data_ = static_cast<const std::uint8_t*>(at);
    size_ = static_cast<std::size_t>(st.st_size);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  }

  bool valid() const { return data_ != nullptr; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace grader
