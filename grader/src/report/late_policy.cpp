// Late work: see late_policy.hpp.
#include "late_policy.hpp"

#include "submission_metadata.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace grader {

namespace {

std::string number(double x) {
  std::ostringstream o;
  o << std::round(x * 1e6) / 1e6;
  return o.str();
}

bool digits(const std::string& s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return false;
  for (std::size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

int field(const std::string& s, std::size_t at, std::size_t n) {
  return std::stoi(s.substr(at, n));
}

}  // namespace

std::int64_t parse_iso8601(const std::string& s) {
  const LatePolicyError bad(
      "'" + s + "' is not an ISO 8601 time with its zone (e.g. 2026-03-06T23:59:00-05:00)");
  // YYYY-MM-DDTHH:MM:SS, then .fraction, then Z or +hh:mm / +hhmm.
  if (!digits(s, 0, 4) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' ||
      !digits(s, 8, 2) || (s[10] != 'T' && s[10] != ' ') || !digits(s, 11, 2) || s[13] != ':' ||
      !digits(s, 14, 2) || s[16] != ':' || !digits(s, 17, 2))
    throw bad;
  std::tm tm{};
  tm.tm_year = field(s, 0, 4) - 1900;
  tm.tm_mon = field(s, 5, 2) - 1;
  tm.tm_mday = field(s, 8, 2);
  tm.tm_hour = field(s, 11, 2);
  tm.tm_min = field(s, 14, 2);
  tm.tm_sec = field(s, 17, 2);
  if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 60)
    throw bad;
  std::size_t i = 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  }
  std::int64_t offset = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const int sign = s[i] == '-' ? -1 : 1;
    ++i;
    if (!digits(s, i, 2)) throw bad;
    const int hours = field(s, i, 2);
    i += 2;
    if (i < s.size() && s[i] == ':') ++i;
    if (!digits(s, i, 2)) throw bad;
    const int minutes = field(s, i, 2);
    i += 2;
    if (hours > 23 || minutes > 59) throw bad;
    offset = sign * (hours * 3600 + minutes * 60);
  } else {
    throw bad;  // a time with no zone means different instants on different machines
  }
  if (i != s.size()) throw bad;
  return static_cast<std::int64_t>(timegm(&tm)) - offset;
}

LatePolicy parse_late_policy(const nlohmann::json& due, const nlohmann::json& late) {
  LatePolicy p;
  if (!due.is_null()) {
    if (!due.is_string())
      throw LatePolicyError("\"due\" must be a time as text (ISO 8601 with its zone)");
    p.due_text = due.get<std::string>();
    p.due = parse_iso8601(p.due_text);
  }
  if (late.is_null() || (late.is_string() && late.get<std::string>() == "none")) return p;
  if (!late.is_object())
    throw LatePolicyError(
        "\"late\" must be \"none\" or {\"per_day\": PERCENT, \"cap\": PERCENT, \"grace_minutes\": "
        "N}");
  for (const auto& [key, value] : late.items()) {
    if (key != "per_day" && key != "cap" && key != "grace_minutes")
      throw LatePolicyError("\"late\" has an unknown field \"" + key +
                            "\" (known: per_day, cap, grace_minutes)");
    if (!value.is_number() || value.get<double>() < 0)
      throw LatePolicyError("\"late\"'s " + key + " must be a number, 0 or more");
  }
  p.penalises = true;
  p.per_day = late.value("per_day", 0.0);
  p.cap = late.value("cap", 100.0);
  p.grace_minutes = late.value("grace_minutes", 0.0);
  if (p.per_day > 100 || p.cap > 100)
    throw LatePolicyError("\"late\"'s per_day and cap are percents, at most 100");
  return p;
}

namespace {

Lateness penalised(const LatePolicy& p, Lateness l) {
  l.late = l.days_late > 0;
  if (p.penalises && l.late) l.penalty_percent = std::min(p.cap, p.per_day * l.days_late);
  return l;
}

}  // namespace

Lateness lateness_at(const LatePolicy& p, std::int64_t submitted, const std::string& source,
                     const std::string& submitted_text, std::optional<std::int64_t> due) {
  Lateness l;
  l.source = source;
  l.submitted_at = submitted_text;
  if (!due) due = p.due;
  if (!due) return l;
  const std::int64_t after = submitted - *due;
  if (after <= 0 || after <= static_cast<std::int64_t>(p.grace_minutes * 60)) return l;
  l.days_late = static_cast<int>((after + 86399) / 86400);  // a day or part of one
  return penalised(p, l);
}

Lateness lateness_flagged(const LatePolicy& p, const std::string& source) {
  Lateness l;
  l.source = source;
  l.days_late = 1;
  return penalised(p, l);
}

double after_penalty(double score, const Lateness& l) {
  return std::round(score * (100 - l.penalty_percent) / 100 * 1e6) / 1e6;
}

std::string describe_late_policy(const LatePolicy& p) {
  std::string out = p.due ? "due " + p.due_text : "no due time";
  if (!p.penalises) return out + "; late work recorded, not penalised";
  out += "; " + number(p.per_day) + "% off a day late (or part of one)";
  if (p.cap < 100) out += ", at most " + number(p.cap) + "%";
  if (p.grace_minutes > 0) out += ", " + number(p.grace_minutes) + " minutes' grace";
  return out;
}

nlohmann::json lateness_json(const Lateness& l, double score) {
  nlohmann::json j = {{"late", l.late},
                      {"days_late", l.days_late},
                      {"penalty_percent", l.penalty_percent},
                      {"score_after_penalty", after_penalty(score, l)},
                      {"source", l.source},
                      {"submitted_at", l.submitted_at}};
  if (!l.due.empty()) {
    j["due"] = l.due;
    j["due_from"] = l.due_from;
  }
  return j;
}

std::string describe_due(const Lateness& l) {
  if (l.due.empty()) return "";
  if (l.due_from == "gradescope extension")
    return "due " + l.due + ", your own due date on Gradescope (an extension)";
  return "due " + l.due + " (Gradescope's due date)";
}

std::optional<Lateness> lateness_from(const LatePolicy& p, const std::string& submitted_at,
                                      const std::optional<SubmissionMetadata>& metadata) {
  if (!submitted_at.empty())
    return lateness_at(p, parse_iso8601(submitted_at), "--submitted-at", submitted_at);
  if (!metadata) return std::nullopt;
  const SubmissionMetadata& m = *metadata;
  if (m.created_at.empty())
    throw LatePolicyError("the submission metadata " + m.path + " has no created_at");
  // The due time: the students' own (Gradescope writes each user's dates, which differ from the
  // assignment's for a student given an extension; a group is due at the latest of its
  // members'), else the assignment's on Gradescope, else the assignment file's.
  std::optional<std::int64_t> due;
  std::string due_text, due_from;
  const std::optional<std::int64_t> gradescope_due =
      m.due_date ? std::optional<std::int64_t>(parse_iso8601(*m.due_date)) : std::nullopt;
  for (const auto& user : m.users)
    if (user.due_date)
      if (const std::int64_t t = parse_iso8601(*user.due_date); !due || t > *due) {
        due = t;
        due_text = *user.due_date;
      }
  if (due) {
    due_from = gradescope_due == due ? "gradescope" : "gradescope extension";
  } else if (gradescope_due) {
    due = gradescope_due;
    due_text = *m.due_date;
    due_from = "gradescope";
  }
  Lateness l = lateness_at(p, parse_iso8601(m.created_at), "gradescope", m.created_at, due);
  l.due = due_text;
  l.due_from = due_from;
  return l;
}

}  // namespace grader
