// How much memory a program's own image takes before its first instruction runs: the sum of
// its loadable segments (code, data and the zero-filled .bss) from its ELF program headers.
// A runner whose image does not fit under the check's address-space limit is stopped by the
// kernel while it is being loaded, with the same SIGSEGV as a stray pointer; this tells the two
// apart, so that a 512 MiB static array is reported as over the memory limit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace grader {

// The bytes the kernel maps for `program`'s PT_LOAD segments (each rounded out to whole
// pages); nothing if it is not a readable 64-bit ELF file.
std::optional<std::uint64_t> program_image_bytes(const std::filesystem::path& program);

}  // namespace grader
