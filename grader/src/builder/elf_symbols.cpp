#include "elf_symbols.hpp"

#include "../util/unique_fd.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <mutex>

namespace grader {

namespace {

// The string at `offset` of a string table section, or false when the offset is outside it or
// the string has no terminating NUL within `max` bytes (a name no honest compiler writes).
bool table_string(Elf* elf, std::size_t table_index, std::size_t offset, std::size_t max,
                  std::string& out) {
  Elf_Scn* scn = elf_getscn(elf, table_index);
  GElf_Shdr shdr;
  if (scn == nullptr || gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_STRTAB)
    return false;
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (data == nullptr || data->d_buf == nullptr || offset >= data->d_size) return false;
  const char* start = static_cast<const char*>(data->d_buf) + offset;
  const std::size_t room = std::min(data->d_size - offset, max + 1);
  const void* end = std::memchr(start, '\0', room);
  if (end == nullptr) return false;
  out.assign(start, static_cast<const char*>(end));
  return true;
}

// The symbols of one symbol table section (`count` entries), appended to c.symbols; false,
// with c.error, when one cannot be read or the names outgrow the bounds (name_bytes: so far).
bool read_symbols(Elf* elf, Elf_Scn* scn, const GElf_Shdr& shdr, std::size_t count,
                  const ElfBounds& bounds, std::size_t& name_bytes, ElfContents& c) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (data == nullptr) {
    c.error = std::string("its symbol table cannot be read: ") + elf_errmsg(-1);
    return false;
  }
  for (std::size_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
    GElf_Sym sym;
    if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) {
      c.error = std::string("a symbol cannot be read: ") + elf_errmsg(-1);
      return false;
    }
    ElfSymbol s;
    s.bind = GELF_ST_BIND(sym.st_info);
    s.type = GELF_ST_TYPE(sym.st_info);
    s.defined = sym.st_shndx != SHN_UNDEF;
    s.visibility = GELF_ST_VISIBILITY(sym.st_other);
    // A local matters only when it is an IFUNC: a million locals cost no memory.
    if (s.bind == STB_LOCAL && s.type != STT_GNU_IFUNC) continue;
    if (!table_string(elf, shdr.sh_link, sym.st_name, bounds.max_name_bytes, s.name)) {
      c.error = "a symbol's name cannot be read, or is longer than " +
                std::to_string(bounds.max_name_bytes) + " bytes";
      return false;
    }
    name_bytes += s.name.size();
    if (name_bytes > bounds.max_total_name_bytes) {
      c.error = "its symbols' names take more than " + std::to_string(bounds.max_total_name_bytes) +
                " bytes";
      return false;
    }
    c.symbols.push_back(std::move(s));
  }
  return true;
}

// One ELF file already open in libelf: its sections and, from the table its kind uses
// (.symtab for an object, .dynsym for a shared library), its symbols.
ElfContents read_open_elf(Elf* elf, const ElfBounds& bounds) {
  ElfContents c;
  if (elf_kind(elf) != ELF_K_ELF) {
    c.error = "it is not an ELF file";
    return c;
  }
  GElf_Ehdr ehdr;
  if (gelf_getehdr(elf, &ehdr) == nullptr) {
    c.error = std::string("its ELF header cannot be read: ") + elf_errmsg(-1);
    return c;
  }
  const unsigned table_type = ehdr.e_type == ET_DYN ? SHT_DYNSYM : SHT_SYMTAB;
  std::size_t section_count = 0, names_index = 0;
  if (elf_getshdrnum(elf, &section_count) != 0 || elf_getshdrstrndx(elf, &names_index) != 0) {
    c.error = std::string("its section table cannot be read: ") + elf_errmsg(-1);
    return c;
  }
  if (section_count > bounds.max_sections) {
    c.error = "it has " + std::to_string(section_count) +
              " sections, more than the grader reads (" + std::to_string(bounds.max_sections) + ")";
    return c;
  }
  c.sections.reserve(section_count);
  std::size_t symbols_seen = 0, name_bytes = 0;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr) {
      c.error = std::string("a section header cannot be read: ") + elf_errmsg(-1);
      return c;
    }
    ElfSection section;
    section.type = shdr.sh_type;
    if (!table_string(elf, names_index, shdr.sh_name, bounds.max_name_bytes, section.name)) {
      c.error = "a section's name cannot be read, or is longer than " +
                std::to_string(bounds.max_name_bytes) + " bytes";
      return c;
    }
    c.sections.push_back(section);
    if (shdr.sh_type != table_type) continue;
    if (shdr.sh_entsize == 0) {
      c.error = "its symbol table has entries of size 0";
      return c;
    }
    const std::size_t count = shdr.sh_size / shdr.sh_entsize;
    symbols_seen += count;
    if (symbols_seen > bounds.max_symbols) {
      c.error = "it has " + std::to_string(symbols_seen) + " symbols or more, more than the " +
                "grader reads (" + std::to_string(bounds.max_symbols) + ")";
      return c;
    }
    if (!read_symbols(elf, scn, shdr, count, bounds, name_bytes, c)) return c;
  }
  return c;
}

void start_libelf() {
  static std::once_flag once;
  std::call_once(once, [] { elf_version(EV_CURRENT); });
}

// Opens `file` read-only for libelf, refusing it when it is not a regular file or too large.
UniqueFd open_bounded(const std::filesystem::path& file, const ElfBounds& bounds,
                      std::string& error) {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "it cannot be opened as a file";
    return UniqueFd();
  }
  if (static_cast<unsigned long long>(st.st_size) > bounds.max_file_bytes) {
    error = "it is " + std::to_string(st.st_size) + " bytes, more than the grader reads (" +
            std::to_string(bounds.max_file_bytes) + ")";
    return UniqueFd();
  }
  return fd;
}

// The section count an ELF64 file's header gives, read before libelf is asked to open it:
// libelf sets up every section at once, so a header that claims millions would cost memory
// before any bound here is checked. Returns false when the header cannot be read.
bool header_section_count(int fd, std::size_t& count) {
  Elf64_Ehdr ehdr;
  if (::pread(fd, &ehdr, sizeof ehdr, 0) != static_cast<ssize_t>(sizeof ehdr)) return false;
  if (std::memcmp(ehdr.e_ident, ELFMAG, SELFMAG) != 0 || ehdr.e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  count = ehdr.e_shnum;
  if (count == 0 && ehdr.e_shoff != 0) {  // extended numbering: the count is section 0's size
    Elf64_Shdr first;
    if (::pread(fd, &first, sizeof first, static_cast<off_t>(ehdr.e_shoff)) !=
        static_cast<ssize_t>(sizeof first))
      return false;
    count = first.sh_size;
  }
  return true;
}

}  // namespace

ElfContents read_elf(const std::filesystem::path& file, const ElfBounds& bounds) {
  start_libelf();
  ElfContents c;
  const UniqueFd fd = open_bounded(file, bounds, c.error);
  if (!fd.valid()) return c;
  std::size_t sections = 0;
  if (!header_section_count(fd.get(), sections)) {
    c.error = "it is not a 64-bit ELF file";
    return c;
  }
  if (sections > bounds.max_sections) {
    c.error = "it has " + std::to_string(sections) + " sections, more than the grader reads (" +
              std::to_string(bounds.max_sections) + ")";
    return c;
  }
  Elf* elf = elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr);
  if (elf == nullptr) c.error = std::string("libelf cannot open it: ") + elf_errmsg(-1);
  else c = read_open_elf(elf, bounds);
  elf_end(elf);
  return c;
}

std::string hide_symbols(const std::filesystem::path& object, const std::set<std::string>& names) {
  start_libelf();
  if (names.empty()) return "";
  const UniqueFd fd(::open(object.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return "cannot open " + object.string();
  Elf* elf = elf_begin(fd.get(), ELF_C_RDWR, nullptr);
  std::string error;
  bool changed = false;
  if (elf == nullptr) error = std::string("libelf cannot open it: ") + elf_errmsg(-1);
  // Every offset stays where the assembler put it: only symbol entries change.
  if (elf != nullptr) elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
  for (Elf_Scn* scn = elf ? elf_nextscn(elf, nullptr) : nullptr; scn != nullptr && error.empty();
       scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_SYMTAB || shdr.sh_entsize == 0)
      continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr) {
      error = std::string("its symbol table cannot be read: ") + elf_errmsg(-1);
      break;
    }
    const std::size_t count = shdr.sh_size / shdr.sh_entsize;
    for (std::size_t i = 1; i < count; ++i) {
      GElf_Sym sym;
      std::string name;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr || sym.st_shndx == SHN_UNDEF ||
          GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
          !table_string(elf, shdr.sh_link, sym.st_name, ElfBounds{}.max_name_bytes, name) ||
          names.count(name) == 0)
        continue;
      sym.st_other = static_cast<unsigned char>((sym.st_other & ~0x3) | STV_HIDDEN);
      if (gelf_update_sym(data, static_cast<int>(i), &sym) == 0) {
        error = std::string("a symbol cannot be changed: ") + elf_errmsg(-1);
        break;
      }
      changed = true;
    }
    if (changed) elf_flagdata(data, ELF_C_SET, ELF_F_DIRTY);
  }
  if (error.empty() && changed && elf_update(elf, ELF_C_WRITE) < 0)
    error = std::string("cannot write it: ") + elf_errmsg(-1);
  if (elf != nullptr) elf_end(elf);
  return error;
}

std::vector<ElfContents> read_elf_archive(const std::filesystem::path& file,
                                          const ElfBounds& bounds) {
  start_libelf();
  std::vector<ElfContents> members;
  std::string error;
  const UniqueFd fd = open_bounded(file, bounds, error);
  Elf* archive = !fd.valid() ? nullptr : elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr);
  if (archive == nullptr || elf_kind(archive) != ELF_K_AR) {
    ElfContents c;
    c.error = !fd.valid() ? error : "it is not an archive";
    members.push_back(c);
  } else {
    Elf_Cmd cmd = ELF_C_READ_MMAP;
    while (Elf* member = elf_begin(fd.get(), cmd, archive)) {
      // The archive's own tables ("/", "//", "/SYM64/") are members too: not objects.
      const Elf_Arhdr* header = elf_getarhdr(member);
      if (header != nullptr && header->ar_name != nullptr && header->ar_name[0] != '/')
        members.push_back(read_open_elf(member, bounds));
      cmd = elf_next(member);
      elf_end(member);
    }
  }
  if (archive != nullptr) elf_end(archive);
  return members;
}

}  // namespace grader
