#include "canvas_download.hpp"

#include "../util/find_files.hpp"
#include "../util/utf8.hpp"
#include "archive_unpack.hpp"

#include <locale.h>
#include <wctype.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <system_error>

namespace grader {

namespace fs = std::filesystem;

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Canvas writes the student's name with its punctuation and spaces removed and lower-cased:
// ASCII lower-case letters and digits, and any letter of another script as it is in UTF-8
// ("garcíajosé", "李明"). A byte of a control character, a '.' or a name that is not valid
// UTF-8 is no name Canvas wrote.
bool canvas_student_word(const std::string& s) {
  if (s.empty() || valid_utf8(s) != s) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return c >= 0x80 || (std::islower(c) || std::isdigit(c));
  });
}

// Canvas versions differ in the flag's case ("_LATE_", "_late_"; some lower-case the whole
// prefix), so any case is the flag.
bool late_flag(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s == "late";
}

}  // namespace

namespace {

// The rest of a name after <student>_: [LATE_]<user id>_<submission id>_<uploaded>, read into
// `name`; false when it is not that.
bool read_after_student(const std::string& rest, CanvasFileName& name) {
  std::vector<std::string> fields;  // up to three '_'-separated fields, then the uploaded name
  std::size_t from = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t at = rest.find('_', from);
    if (at == std::string::npos) break;
    fields.push_back(rest.substr(from, at - from));
    from = at + 1;
  }
  std::size_t ids = 0;  // where the user id is among the fields
  if (!fields.empty() && late_flag(fields[0])) {
    name.late = true;
    ids = 1;
  }
  if (fields.size() < ids + 2 || !all_digits(fields[ids]) || !all_digits(fields[ids + 1]))
    return false;
  std::size_t used = 0;
  for (std::size_t i = 0; i < ids + 2; ++i) used += fields[i].size() + 1;
  name.uploaded = rest.substr(used);
  if (name.uploaded.empty()) return false;
  // A hidden upload (".x.zip") is still a reading: it takes part in deciding whose the file
  // is, and is then left out (unpack_canvas_download).
  name.hidden = name.uploaded[0] == '.';
  name.user_id = fields[ids];
  // Without leading zeros: every comparison of ids (here, in grade-all and the gradebook) takes a
  // longer string of digits for a larger number, which "0199" against "200" would make untrue.
  const std::string& id = fields[ids + 1];
  name.submission_id = id.substr(std::min(id.find_first_not_of('0'), id.size() - 1));
  return true;
}

// A student's name as Canvas writes it: words (canvas_student_word) joined by '_', the last not
// "late" in any case (Canvas puts its flag there: "kimlee_late_2001_..." is Kim Lee, late).
bool canvas_student_name(const std::string& s) {
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = s.find('_', from);
    const std::string word = s.substr(from, at == std::string::npos ? at : at - from);
    if (!canvas_student_word(word)) return false;
    if (at == std::string::npos) return !late_flag(word) || from == 0;
    from = at + 1;
  }
}

}  // namespace

std::vector<CanvasFileName> canvas_name_readings(const std::string& filename) {
  std::vector<CanvasFileName> readings;
  for (std::size_t at = filename.find('_'); at != std::string::npos;
       at = filename.find('_', at + 1)) {
    const std::string student = filename.substr(0, at);
    CanvasFileName name;
    if (!canvas_student_name(student) || !read_after_student(filename.substr(at + 1), name))
      continue;
    name.name = student;
    name.student = student + "_" + name.user_id;
    readings.push_back(std::move(name));
  }
  return readings;
}

std::optional<CanvasFileName> parse_canvas_name(const std::string& filename) {
  auto readings = canvas_name_readings(filename);
  if (readings.size() != 1 || readings.front().hidden) return std::nullopt;
  return std::move(readings.front());
}

namespace {

std::string utf8_of(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xc0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xe0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  }
  return out;
}

}  // namespace

std::string canvas_file_name_of(const std::string& roster_name) {
  // Canvas keeps the word characters of a name (letters, marks and digits of any script, '_')
  // and lower-cases them. The C.UTF-8 locale classifies and lower-cases every script as Unicode
  // does; without it, ASCII is cleaned and every other character kept as it is.
  static const locale_t utf8 = ::newlocale(LC_ALL_MASK, "C.UTF-8", nullptr);
  const std::string text = valid_utf8(roster_name);
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = std::max<std::size_t>(1, utf8_length(s, i, text.size()));
    if (len == 1) {
      if (std::isalnum(s[i]) || s[i] == '_') out += static_cast<char>(std::tolower(s[i]));
    } else if (!utf8) {
      out.append(text, i, len);
    } else {
      char32_t c = s[i] & (0x7f >> len);
      for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (s[i + k] & 0x3f);
      const auto w = static_cast<wint_t>(c);
      if (::iswalnum_l(w, utf8) || ::iswalpha_l(w, utf8)) {
        const auto lower = static_cast<char32_t>(::towlower_l(w, utf8));
        out += utf8_of(lower);
      }
    }
    i += len;
  }
  return out;
}

std::string canvas_copy_of(const std::string& uploaded) {
  const std::size_t dot = uploaded.find('.');
  const std::string stem = uploaded.substr(0, dot),
                    ext = dot == std::string::npos ? "" : uploaded.substr(dot);
  const std::size_t dash = stem.rfind('-');
  if (dash == std::string::npos || dash == 0 || !all_digits(stem.substr(dash + 1))) return uploaded;
  return stem.substr(0, dash) + ext;
}

namespace {

// Which reading of a file's name to take: the only one; of several, with no roster the first;
// with a roster, the one it confirms (its user id a roster student's, whose name Canvas writes
// as the reading has it), and only when no other reading's user id is a roster student's at all
// (a name written with characters Canvas drops must not turn a real student's reading into
// none); nothing otherwise.
std::optional<std::size_t> reading_taken(const std::vector<CanvasFileName>& readings,
                                         const CanvasNames& known) {
  if (readings.size() == 1 || known.empty()) return 0;
  std::optional<std::size_t> confirmed;
  std::size_t on_roster = 0;
  for (std::size_t i = 0; i < readings.size(); ++i) {
    const auto names = known.find(readings[i].user_id);
    if (names == known.end()) continue;
    ++on_roster;
    if (names->second.count(readings[i].name)) confirmed = i;
  }
  if (on_roster != 1) return std::nullopt;
  return confirmed;
}

// "lovelaceada_1002 or lovelaceada_1002_1019": the students a file's readings name.
std::string whose(const std::vector<CanvasFileName>& readings) {
  std::string out;
  for (std::size_t i = 0; i < readings.size(); ++i)
    out += (i == 0 ? "" : i + 1 == readings.size() ? " or " : ", ") + readings[i].student;
  return out;
}

// student -> the file a "-N" copy stands for -> every upload of it
using UploadsByStudent =
    std::map<std::string, std::map<std::string, std::vector<std::pair<fs::path, CanvasFileName>>>>;

// Every upload of the download's listing, by student and by the file a "-N" copy stands for;
// what is not a student's upload, or is nobody's for sure, is named in `out`.
UploadsByStudent read_canvas_listing(const fs::path& class_dir, const CanvasNames& known,
                                     CanvasUnpacked& out) {
  UploadsByStudent by_student;
  for (const auto& entry : fs::directory_iterator(class_dir)) {
    // A folder is a submission of its own, a link is named by grade-all (it could point
    // anywhere); a pipe, a socket or a device is named with the files that are not graded.
    const auto type = entry.symlink_status().type();
    if (type == fs::file_type::directory || type == fs::file_type::symlink) continue;
    const std::string filename = entry.path().filename().string();
    if (filename[0] == '.') continue;
    if (type != fs::file_type::regular) {
      out.ignored.push_back(filename);
      continue;
    }
    const auto readings = canvas_name_readings(filename);
    if (readings.empty()) {
      out.ignored.push_back(filename);
      continue;
    }
    const auto taken = reading_taken(readings, known);
    if (!taken) {  // the roster cannot tell whose: nobody's, said to each it could be
      for (const auto& r : readings)
        out.notes[r.student].push_back(
            filename + " reads as a file of " + whose(readings) +
            ", and the roster does not tell which (a student's name with '_' in it makes " +
            "Canvas's names ambiguous): graded for nobody; give it to its owner by hand");
      out.ambiguous.push_back(filename);
      continue;
    }
    const CanvasFileName& name = readings[*taken];
    if (readings.size() > 1)
      out.notes[name.student].push_back(filename + " is taken as " + name.student +
                                        "'s, but reads as a file of " + whose(readings) + " too; " +
                                        (known.empty() ? "a roster with Canvas ids decides"
                                                       : "the roster confirms " + name.student +
                                                             " alone (a student missing "
                                                             "from it is not asked)"));
    if (name.hidden) {  // a hidden upload (".x.zip"): not graded, as a hidden file never is
      out.ignored.push_back(filename);
      continue;
    }
    by_student[name.student][canvas_copy_of(name.uploaded)].emplace_back(entry.path(), name);
  }
  return by_student;
}

}  // namespace

CanvasUnpacked unpack_canvas_download(const fs::path& class_dir, const fs::path& staging,
                                      const CanvasNames& known) {
  CanvasUnpacked out;
  UploadsByStudent by_student = read_canvas_listing(class_dir, known, out);
  fs::remove_all(staging);  // made anew: a student or a file gone from the download goes here too
  // Ids as numbers: a shorter string of digits is a smaller number.
  auto later = [](const auto& a, const auto& b) {
    const std::string &x = a.second.submission_id, &y = b.second.submission_id;
    return x.size() != y.size() ? x.size() > y.size() : x > y;
  };
  for (auto& [student, uploads] : by_student) {
    const fs::path folder = staging / student;
    fs::create_directories(folder);
    for (auto& [file, copies] : uploads) {
      // The latest first; under one id, by the download's file name (the folder's order is
      // the file system's, and a decision must not depend on it).
      std::sort(copies.begin(), copies.end(), [&](const auto& a, const auto& b) {
        if (later(a, b) || later(b, a)) return later(a, b);
        return a.first.filename() < b.first.filename();
      });
      const std::string& latest = copies.front().second.submission_id;
      std::string& newest = out.latest_submission[student];
      if (newest.size() < latest.size() || (newest.size() == latest.size() && newest < latest))
        newest = latest;
      std::vector<std::string> older;
      std::map<std::string, std::string> copied;  // uploaded name -> the download file copied
      for (const auto& [from, name] : copies) {
        if (name.submission_id == latest && copied.count(name.uploaded)) {
          // "_0600_" and "_600_": one id, one name. Not Canvas's doing; the first (by name) is
          // graded, the other said, never written over it in silence.
          out.notes[student].push_back(from.filename().string() + " has the same name and " +
                                       "submission id as " + copied[name.uploaded] +
                                       ", which is graded; it is not");
        } else if (name.submission_id == latest) {
          copied[name.uploaded] = from.filename().string();
          // Copies under one id: not Canvas's doing, so both go and the file finder decides.
          // Through the finder's door, at most a source's size (an archive: what it may unpack
          // to), so that a 2 GiB sparse upload is never written out in full.
          const std::uint64_t cap =
              is_archive_name(name.uploaded) ? ArchiveLimits{}.max_bytes : kMaxSourceBytes;
          const std::string problem = copy_submission_file(class_dir, from.filename().string(),
                                                           folder / name.uploaded, cap);
          if (!problem.empty()) out.notes[student].push_back(problem + "; it was not graded");
          if (problem.empty() && name.late) out.late[student].insert(name.uploaded);
        } else {
          older.push_back(name.uploaded + " (submission " + name.submission_id + ")");
        }
      }
      if (older.empty()) continue;
      std::string note = copies.front().second.uploaded + " (Canvas submission " + latest +
                         ") is graded; older uploads of " + file + " left out:";
      for (std::size_t i = 0; i < older.size(); ++i) note += (i ? ", " : " ") + older[i];
      out.notes[student].push_back(note);
    }
    out.students.push_back(student);
  }
  std::sort(out.ignored.begin(), out.ignored.end());
  std::sort(out.ambiguous.begin(), out.ambiguous.end());
  return out;
}

}  // namespace grader
