#include "oracle_source.hpp"

#include "oracle_compact.hpp"

#include "../../common/wire.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace grader {

namespace {

constexpr const char* kFormat = "linattn-oracle/2";
constexpr const char* kFormatWhole = "linattn-oracle/1";  // every value whole

// Each check's pools get an order of their own (FNV-1a of its key, and its seed).
std::uint64_t pool_salt(const std::string& key, std::uint64_t seed) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char ch : key) h = (h ^ ch) * 1099511628211ull;
  return h ^ seed;
}

std::string key_of(const std::string& exercise, const Check& check) {
  return exercise + "/" + check.name;
}

}  // namespace

OracleSource OracleSource::live() { return OracleSource(); }

OracleSource OracleSource::replay(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw std::runtime_error("the recorded expected values " + path +
                             " are missing; this copy "
                             "of the kit is incomplete (make it again with ./kit release student)");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                        std::istreambuf_iterator<char>());
  json data;
  try {
    data = wire::decode(bytes);
  } catch (const std::exception& e) {
    throw std::runtime_error("the recorded expected values " + path +
                             " cannot be read: " + e.what());
  }
  const std::string format = data.is_object() ? data.value("format", "") : "";
  if ((format != kFormat && format != kFormatWhole) || !data.contains("checks"))
    throw std::runtime_error("the file " + path +
                             " is not a recording of the grader's expected values");
  OracleSource source;
  source.data_ = std::make_shared<const json>(std::move(data.at("checks")));
  source.path_ = path;
  return source;
}

std::optional<std::uint64_t> OracleSource::recorded_seed(const std::string& exercise,
                                                         const Check& check) const {
  if (!data_) return std::nullopt;
  auto it = data_->find(key_of(exercise, check));
  if (it == data_->end() || it->value("function", "") != check.function) return std::nullopt;
  return it->at("seed").get<std::uint64_t>();
}

OracleCase OracleSource::fetch(const std::string& exercise, const Check& check,
                               std::uint64_t seed) const {
  if (data_) {
    const auto recorded = recorded_seed(exercise, check);
    if (!recorded || *recorded != seed)
      throw std::runtime_error("no recorded expected values for " + key_of(exercise, check) +
                               " at seed " + std::to_string(seed));
    const json& entry = data_->at(key_of(exercise, check));
    OracleCase c;
    c.request = expand_request(entry.at("request"));
    c.expected = entry.at("expected");
    c.shrunk = has_shrunk_values(c.expected);
    return c;
  }
  if (!check.request || !check.expect)
    throw std::runtime_error("this kit has no oracle for " + key_of(exercise, check));
  OracleCase c;
  c.request = check.request(seed);
  c.expected = check.expect(c.request);
  return c;
}

json record_oracle(const Assignment& assignment, bool visible_only) {
  json checks = json::object();
  const OracleSource live = OracleSource::live();
  for (const auto& ex : exercise_checks()) {
    if (!assignment.find(ex.exercise)) continue;
    for (const auto& c : ex.checks) {
      if (visible_only && assignment.visibility_of(ex.exercise, c) != Visibility::Visible) continue;
      OracleCase oc = live.fetch(ex.exercise, c, c.seed);
      // Large calls go as pools, and their expected values are the reference's on the calls
      // the pools rebuild (the inputs the student kit will send).
      json request = shrink_request(oc.request, pool_salt(key_of(ex.exercise, c), c.seed));
      json expected =
          request == oc.request ? std::move(oc.expected) : c.expect(expand_request(request));
      checks[key_of(ex.exercise, c)] = json{{"function", c.function},
                                            {"seed", c.seed},
                                            {"request", std::move(request)},
                                            {"expected", shrink_expected(expected)}};
    }
  }
  return json{{"format", kFormat}, {"checks", std::move(checks)}};
}

Verdict judge_case(const Check& check, const OracleCase& oracle_case, const json& reply) {
  if (!oracle_case.shrunk) return check.judge(oracle_case.request, oracle_case.expected, reply);
  return judge_shrunk(check, oracle_case.request, oracle_case.expected, reply);
}

bool write_oracle_file(const std::string& path, const json& data) {
  const std::vector<std::uint8_t> bytes = wire::encode(data);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  return static_cast<bool>(f);
}

}  // namespace grader
