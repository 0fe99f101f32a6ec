// Canvas's "Download Submissions": one flat folder (the unzipped submissions.zip) in which every
// file a student uploaded is renamed <student>_<user id>_<submission id>_<file as uploaded>,
// with _LATE_ after <student> for a late one ("lovelaceada_LATE_1001_52345_causal.cpp"; any case:
// "_late_" in some versions), the student's name in any script ("garcíajosé_1007_..."); Canvas
// adds "-1", "-2" to the uploaded name when a student uploads the same name twice. grade-all
// turns such files into one submission folder per student, so that a Canvas class grades as it
// downloads, without unpacking by hand.
//
// <student> is the student's sortable name ("Lovelace, Ada") with everything but word
// characters removed, lower-cased: letters of any script, digits and '_' stay. A name with '_'
// in it ("O_Brien, Pat": "o_brienpat_1002_...") makes the fields ambiguous, and a student who
// chose such a name could make a file read as another's ("lovelaceada_1002_1019_7_x.zip" is
// student 1019's if they are named "lovelaceada_1002", or Ada's, 1002, with an upload named
// "7_x.zip"). Every reading is found; the roster decides between them (the reading whose user
// id is a roster student whose name Canvas writes so), and a file it cannot decide is graded
// for nobody and named in the notes of each student it could be.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace grader {

struct CanvasFileName {
  std::string student;        // "lovelaceada_1001": Canvas's name and user id, one per student
  std::string name, user_id;  // "lovelaceada", "1001": its two parts
  std::string uploaded;       // "causal.cpp": the name the student gave the file
  std::string submission_id;  // Canvas's, larger for a later submission
  bool late = false;
  bool hidden = false;  // the uploaded name starts with '.': never graded
};

// Every way `filename` reads as a Canvas download name, the shortest student name first (none:
// it is not one). One reading, unless a student's name holds '_' (see above).
std::vector<CanvasFileName> canvas_name_readings(const std::string& filename);

// The parts of a Canvas download name: its only reading, or nothing when it has none or several.
std::optional<CanvasFileName> parse_canvas_name(const std::string& filename);

// The name Canvas writes in a download's file names for a roster name: "Lovelace, Ada" ->
// "lovelaceada", "García, José" -> "garcíajosé", "Ørsted, Hans" -> "ørstedhans": the word
// characters of any script, lower-cased (the C.UTF-8 locale's classes).
std::string canvas_file_name_of(const std::string& roster_name);

// Canvas user id -> the names Canvas writes for them (canvas_file_name_of of the roster's name,
// and of "last first" when the roster has those columns): what decides between readings.
using CanvasNames = std::map<std::string, std::set<std::string>>;

// "causal-1.cpp" -> "causal.cpp": the name a "-N" copy Canvas made stands for (a name with no
// such copy number is returned as it is).
std::string canvas_copy_of(const std::string& uploaded);

struct CanvasUnpacked {
  std::vector<std::string> students;   // the folders made under the staging folder, sorted
  std::vector<std::string> ignored;    // plain files of the class folder that are not Canvas's
  std::vector<std::string> ambiguous;  // Canvas's files whose owner the roster cannot tell
  // Per student, what was left out for a later upload of the same file, said in their report:
  // "causal-1.cpp (Canvas submission 7002) is graded; older uploads of causal.cpp left out:
  // causal.cpp (submission 7001)".
  std::map<std::string, std::vector<std::string>> notes;
  // Per student, the highest submission id of their files: how recent their submission is.
  std::map<std::string, std::string> latest_submission;
  // Per student, the files copied that Canvas named _LATE_ (late_policy.hpp): the student is
  // late when a file graded is one of them (or inside one, an archive), not for any other.
  std::map<std::string, std::set<std::string>> late;
};

// Copies every Canvas download file directly inside `class_dir` to
// staging/<student>/<uploaded>. The staging folder is made anew each time, so a student or a
// file gone from the download is gone from it too. Within one student's files, a "-N" copy is
// the same file as the name without it ("causal-1.cpp" is a second upload of "causal.cpp"):
// only the one with the highest submission id is copied, under its own name, and a note says
// which. Two such files with the same id (Canvas numbers every file anew, so only a hand-made
// folder has them) are both copied, and the file finder's rules decide. Folders in `class_dir`
// are left alone: they are submissions of their own.
//
// A file with several readings goes to the one reading `known` confirms (its user id there, with
// its name), if no other reading's user id is there at all. With no roster (`known` empty) the
// first reading is taken. Either way the notes say how else it reads. When the roster cannot
// decide, the file is graded for nobody and the notes of every student it could be say so.
// What the roster cannot see: a student missing from it can still write a name that reads as
// another's file (the note on that student's row is then what shows it).
CanvasUnpacked unpack_canvas_download(const std::filesystem::path& class_dir,
                                      const std::filesystem::path& staging,
                                      const CanvasNames& known = {});

}  // namespace grader
