// Gradescope's submission_metadata.json: see submission_metadata.hpp.
#include "submission_metadata.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace grader {

namespace {

using json = nlohmann::json;

// A text or a number as text (Gradescope writes ids as numbers, a sid may be either); "" for
// null or absent.
std::string text_of(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object[key].is_null()) return "";
  const json& v = object[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  throw SubmissionMetadataError(where + "'s \"" + key + "\" is neither text nor a whole number");
}

// A date: text, or null / absent (Gradescope's late_due_date is null when none is set).
std::optional<std::string> date_of(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object[key].is_null()) return std::nullopt;
  if (!object[key].is_string())
    throw SubmissionMetadataError(where + "'s \"" + key + "\" is not a time as text");
  return object[key].get<std::string>();
}

}  // namespace

SubmissionMetadata read_submission_metadata(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SubmissionMetadataError("cannot read the submission metadata " + path);
  json j;
  try {
    j = json::parse(f);
  } catch (const json::exception& e) {
    throw SubmissionMetadataError("the submission metadata " + path + " is not JSON: " + e.what());
  }
  const std::string where = "the submission metadata " + path;
  if (!j.is_object()) throw SubmissionMetadataError(where + " is not a JSON object");
  SubmissionMetadata m;
  m.path = path;
  if (const auto created = date_of(j, "created_at", where)) m.created_at = *created;
  if (j.contains("assignment") && j["assignment"].is_object()) {
    m.due_date = date_of(j["assignment"], "due_date", where + ": assignment");
    m.late_due_date = date_of(j["assignment"], "late_due_date", where + ": assignment");
  }
  if (j.contains("users") && !j["users"].is_null()) {
    if (!j["users"].is_array()) throw SubmissionMetadataError(where + ": \"users\" is not a list");
    for (const json& u : j["users"]) {
      if (!u.is_object()) throw SubmissionMetadataError(where + ": a user is not a JSON object");
      GradescopeUser user;
      user.sid = text_of(u, "sid", where + ": a user");
      user.email = text_of(u, "email", where + ": a user");
      user.id = text_of(u, "id", where + ": a user");
      user.name = text_of(u, "name", where + ": a user");
      if (u.contains("assignment") && u["assignment"].is_object()) {
        user.due_date = date_of(u["assignment"], "due_date", where + ": a user's assignment");
        user.late_due_date =
            date_of(u["assignment"], "late_due_date", where + ": a user's assignment");
      }
      m.users.push_back(std::move(user));
    }
  }
  return m;
}

std::string student_identity(const SubmissionMetadata& m) {
  std::vector<std::string> ids;
  for (const auto& u : m.users) {
    const std::string id = !u.sid.empty() ? u.sid : !u.email.empty() ? u.email : u.id;
    if (!id.empty()) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : "+") + id;
  return out;
}

}  // namespace grader
