// The sections and symbols of an ELF file, read with elfutils' libelf (Debian: libelf-dev)
// rather than from a tool's printed text, whose columns a crafted name or size can shift.
// The files read here include a student's compiled object, which is hostile input: every
// count and every string is bounded, and a file past a bound is reported, not read on.
#pragma once

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace grader {

struct ElfSection {
  std::string name;
  unsigned type = 0;  // SHT_*
};

struct ElfSymbol {
  std::string name;
  unsigned char bind = 0;        // STB_*
  unsigned char type = 0;        // STT_*
  bool defined = false;          // in a section of the file, common or absolute
  unsigned char visibility = 0;  // STV_*
};

struct ElfContents {
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;  // of .symtab (an object) or .dynsym (a shared library),
                                   // all but the locals that are not IFUNCs
  std::string error;               // non-empty: not read (why, in words for a student)
};

struct ElfBounds {
  std::size_t max_file_bytes = std::size_t{64} << 20;
  std::size_t max_sections = 100000;
  std::size_t max_symbols = 500000;
  std::size_t max_name_bytes = 16384;
  std::size_t max_total_name_bytes = std::size_t{64} << 20;  // many symbols may share one name
};

// One ELF file: a relocatable object or a shared library.
ElfContents read_elf(const std::filesystem::path& file, const ElfBounds& bounds = {});

// Gives the defined symbols of `object` (a relocatable object, read within `bounds` by read_elf
// first) whose names are in `names` hidden visibility, in place: the linker then keeps them out of
// the program's dynamic symbol table, so no shared library's own calls reach them. Returns an
// empty string, or why the file could not be changed.
std::string hide_symbols(const std::filesystem::path& object, const std::set<std::string>& names);

// Every member of an ar archive (a static library), one ElfContents each; on an unreadable
// archive, one entry with the error.
std::vector<ElfContents> read_elf_archive(const std::filesystem::path& file,
                                          const ElfBounds& bounds = {});

}  // namespace grader
