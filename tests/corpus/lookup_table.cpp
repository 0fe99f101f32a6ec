// The lookup-table attack on the course grader: a `read` that knows nothing but the expected
// values a student kit records (its visible checks, at their own seeds) and answers from a
// table. Graded with the checks' own seeds it takes their points (which shows the table
// works); graded as the course grades (--course: seeds from the course's key) it must lose
// every check whose inputs depend on the seed. Only the seed text's worked example, whose
// inputs are fixed, may still match.
// The hidden checks, which no student kit records, must not be answerable from a table of what
// any grader once asked either: tests/checks/registry_test.cpp ("lookup tables") asserts that
// every hidden check's inputs change with the seed.
//
// usage: lookup_table GRADER KIT_DIR
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string hexfloat(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

json read_json(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

// { check name: status } for the checks of `read` in a native report.
std::map<std::string, std::string> read_statuses(const json& report) {
  std::map<std::string, std::string> out;
  for (const auto& ex : report["exercises"])
    for (const auto& c : ex["checks"])
      if (c["function"] == "read")
        out[c["name"].get<std::string>()] = c["status"].get<std::string>();
  return out;
}

// The table: every recorded call of read, keyed by its sizes and first entries, as the rows of
// a C++ array (one per call); `rows` counts them.
std::string table_of_reads(const json& recorded, int& rows) {
  std::ostringstream table;
  rows = 0;
  for (const auto& [key, entry] : recorded["checks"].items()) {
    if (entry["function"] != "read") continue;
    const json& calls = entry["request"]["calls"];
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const json& S = calls[i]["S"];
      const json& q = calls[i]["q"];
      const json& value = entry["expected"]["calls"][i]["value"];
      table << "    {" << S["rows"] << ", " << S["cols"] << ", " << hexfloat(S["data"][0]) << ", "
            << hexfloat(q[0]) << ", {";
      for (std::size_t j = 0; j < value.size(); ++j) table << (j ? ", " : "") << hexfloat(value[j]);
      table << "}},\n";
      ++rows;
    }
  }
  return table.str();
}

// The solutions' read() in `memory` replaced by one that answers from `table` (zeros for a
// call it does not know). False when the file holds no read() to replace.
bool answer_read_from_table(const fs::path& memory, const std::string& table) {
  std::ifstream src(memory);
  std::string text((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  src.close();
  const std::string head = "Vector read(const Matrix& S, const Vector& q) {\n";
  const auto at = text.find(head);
  const auto end = text.find("\n}\n", at);
  if (at == std::string::npos || end == std::string::npos) return false;
  const std::string body =
      head +
      "  struct Row { long rows, cols; double s0, q0; std::vector<double> value; };\n"
      "  static const Row table[] = {\n" +
      table +
      "  };\n"
      "  for (const Row& r : table)\n"
      "    if (S.rows() == r.rows && S.cols() == r.cols && S(0, 0) == r.s0 && q(0) == r.q0)\n"
      "      return Eigen::Map<const Vector>(r.value.data(), "
      "static_cast<Eigen::Index>(r.value.size()));\n"
      "  return Vector::Zero(S.cols());\n}\n";
  text = "#include <vector>\n" + text.substr(0, at) + body + text.substr(end + 3);
  std::ofstream(memory) << text;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: lookup_table GRADER KIT_DIR\n";
    return 2;
  }
  const std::string grader = argv[1];
  const fs::path kit = argv[2];
  char pattern[] = "/tmp/linattn-lookup-XXXXXX";
  if (!mkdtemp(pattern)) return 2;
  const fs::path work = pattern;

  // What a student kit ships: the visible checks' requests and expected values.
  const fs::path recording = work / "oracle.cbor";
  if (std::system((quote(grader) + " --kit " + quote(kit.string()) + " --record-oracle " +
                   quote(recording.string()) + " --visible-only")
                      .c_str()) != 0) {
    std::cerr << "FAILED: could not record the visible checks\n";
    return 1;
  }
  std::ifstream in(recording, std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const json recorded = json::from_cbor(bytes);

  // The table: every recorded call of read, keyed by its sizes and first entries.
  int rows = 0;
  const std::string table = table_of_reads(recorded, rows);
  if (rows == 0) {
    std::cerr << "FAILED: the recording has no call of read\n";
    return 1;
  }

  const fs::path submission = work / "submission";
  fs::copy(kit / "solutions", submission, fs::copy_options::recursive);
  if (!answer_read_from_table(submission / "memory" / "memory.cpp", table)) {
    std::cerr << "FAILED: no read() in the solutions' memory.cpp\n";
    return 1;
  }

  const fs::path own = work / "own.json", course = work / "course.json";
  const std::string base =
      quote(grader) + " " + quote(submission.string()) + " --only memory --quiet";
  std::system((base + " --json " + quote(own.string())).c_str());
  std::system((base + " --course --json " + quote(course.string())).c_str());
  if (!fs::exists(own) || !fs::exists(course)) {
    std::cout << "FAILED: a grade wrote no report\n";
    return 1;
  }
  const auto own_status = read_statuses(read_json(own));
  const auto course_status = read_statuses(read_json(course));

  int failures = 0;
  int own_passed = 0, course_passed = 0;
  for (const auto& [name, status] : own_status) {
    std::cout << name << ": own seeds " << status << ", course seeds " << course_status.at(name)
              << "\n";
    own_passed += status == "passed";
    course_passed += course_status.at(name) == "passed";
  }
  // The table must work where the seeds are the student kit's (else this test proves nothing)...
  if (own_passed < 3) {
    std::cout << "FAILED: the lookup table passed only " << own_passed
              << " visible checks at their own seeds\n";
    ++failures;
  }
  // ...and gain nothing where they are the course's, beyond the worked example.
  for (const char* randomized :
       {"read/orientation", "read/square-state", "read/unnormalized-query"})
    if (course_status.at(randomized) == "passed") {
      std::cout << "FAILED: " << randomized << " passed under the course's seeds\n";
      ++failures;
    }
  std::cout << "lookup table: " << own_passed << " passed at the kit's seeds, " << course_passed
            << " at the course's\n";
  fs::remove_all(work);
  return failures == 0 ? 0 : 1;
}
