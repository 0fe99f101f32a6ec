// Runners built from fixture submissions, run under the sandbox on CBOR requests, as the
// judge will run them: the replies carry outputs and observations, and the student's own
// printing changes nothing.
#include "builder/builder.hpp"
#include "helpers.hpp"
#include "sandbox/sandbox.hpp"

#include "common/wire.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include <fstream>
#include <string>

using grader::build_runner;
using grader::BuildResult;
using grader_test::fresh_submission;
using json = nlohmann::json;

namespace {

// Builds once per fixture and exercise for the whole test program.
std::filesystem::path runner_for(const std::string& fixture, const std::string& exercise) {
  static std::map<std::string, std::filesystem::path> built;
  const std::string key = fixture + "/" + exercise;
  auto it = built.find(key);
  if (it != built.end()) return it->second;
  const auto dir = fresh_submission(fixture);
  BuildResult r = build_runner(exercise, dir);
  INFO(r.log);
  REQUIRE(r.ok());
  std::filesystem::remove_all(dir);
  return built[key] = r.runner;
}

struct Run {
  grader::RunOutcome outcome;
  json reply;  // null if none was written
};

Run run(const std::filesystem::path& runner, const json& request, double seconds = 20.0) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("grader-run-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  const auto bytes = wire::encode(request);
  std::ofstream(dir / "request.cbor", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  grader::Limits limits;
  limits.wall_seconds = seconds;
  Run result;
  result.outcome = grader::run_sandboxed(
      {runner.string(), (dir / "request.cbor").string(), (dir / "reply.cbor").string()}, dir,
      limits);
  const std::string reply = grader_test::slurp(dir / "reply.cbor");
  if (!reply.empty())
    result.reply = wire::decode(std::vector<std::uint8_t>(reply.begin(), reply.end()));
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace

TEST_CASE("runner: returns the outputs of every call") {
  const auto runner = runner_for("good", "flops");
  json request{{"function", "attention_flops"},
               {"calls",
                {{{"T", 65536}, {"d_phi", 128}, {"d_v", 128}, {"order", "left"}},
                 {{"T", 3}, {"d_phi", 2}, {"d_v", 5}, {"order", "right"}}}}};
  Run r = run(runner, request);
  INFO(r.outcome.output);
  REQUIRE(r.outcome.ending == grader::RunOutcome::Ending::Exited);
  CHECK(r.outcome.exit_code == 0);
  REQUIRE(r.reply.is_object());
  CHECK(r.reply.at("outcome") == "returned");
  REQUIRE(r.reply.at("results").size() == 2);
  CHECK(r.reply["results"][0]["value"].get<std::int64_t>() == 4ll * 65536 * 65536 * 128);
  CHECK(r.reply["results"][1]["value"].get<std::int64_t>() == 4 * 3 * 2 * 5);
  CHECK(r.reply.at("inputs_changed").empty());

  Run other =
      run(runner, json{{"function", "crossover_T"}, {"calls", {{{"d_phi", 4}, {"d_v", 4}}}}});
  REQUIRE(other.reply.is_object());
  CHECK(other.reply["results"][0]["value"] == 5);  // equal widths d: d + 1
}

// Taylor features of the unit rows e_1, e_2 of R^2, as the judge would tabulate them:
// (1, x, vec(x x^T)/sqrt(2)).
json taylor_table() {
  Eigen::MatrixXd rows = Eigen::MatrixXd::Identity(2, 2);
  const double h = 1.0 / std::sqrt(2.0);
  Eigen::MatrixXd F(2, 7);
  // One row per line.
  // clang-format off
  F << 1, 1, 0, h, 0, 0, 0,
       1, 0, 1, 0, 0, 0, h;
  // clang-format on
  return json{
      {"name", "taylor"}, {"rows", wire::from_matrix(rows)}, {"features", wire::from_matrix(F)}};
}

TEST_CASE("runner: matrices and a feature map travel both ways") {
  const auto runner = runner_for("good", "causal");
  // The seed-style hand example: elu+1 of non-negative integers is x + 1.
  const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(2, 2), K = Eigen::MatrixXd::Identity(2, 2);
  Eigen::MatrixXd V(2, 3);
  V << 1, 2, 3, 4, 5, 6;
  json request{{"function", "causal_linear_attention_recurrent"},
               {"calls",
                {{{"Q", wire::from_matrix(Q)},
                  {"K", wire::from_matrix(K)},
                  {"V", wire::from_matrix(V)},
                  {"phi", {{"name", "elu_plus_one"}}},
                  {"eps", 0.0}},
                 {{"Q", wire::from_matrix(Q)},
                  {"K", wire::from_matrix(K)},
                  {"V", wire::from_matrix(V)},
                  {"phi", taylor_table()},
                  {"eps", 0.0}}}}};
  Run r = run(runner, request);
  INFO(r.outcome.output);
  REQUIRE(r.reply.is_object());
  REQUIRE(r.reply.at("outcome") == "returned");
  const Eigen::MatrixXd O = wire::to_matrix(r.reply["results"][0]["O"]);
  REQUIRE(O.rows() == 2);
  REQUIRE(O.cols() == 3);
  CHECK(O.row(0).isApprox(V.row(0)));  // T = 1 gives v_1
  // Row 2: phi(q_2) = (1, 2), phi(k_1) = (2, 1), phi(k_2) = (1, 2): weights 4 and 5.
  CHECK(O.row(1).isApprox((4 * V.row(0) + 5 * V.row(1)) / 9.0));
  // Taylor features arrive as a table: q_2 . k_1 = 0 and q_2 . k_2 = 1 give kernels 1 and 2.5.
  const Eigen::MatrixXd O2 = wire::to_matrix(r.reply["results"][1]["O"]);
  REQUIRE(O2.cols() == 3);  // d_phi = 7 for Taylor features, but the output is (T, d_v)
  CHECK(O2.row(1).isApprox((1.0 * V.row(0) + 2.5 * V.row(1)) / 3.5));

  // A row the table does not hold (here 2 q_1) is the student's code at fault: an exception.
  json scaled = request;
  scaled["calls"] = json::array({request["calls"][1]});
  scaled["calls"][0]["Q"] = wire::from_matrix(2.0 * Q);
  Run missing = run(runner, scaled);
  REQUIRE(missing.reply.is_object());
  CHECK(missing.reply.at("outcome") == "exception");
  CHECK(missing.reply.at("what").get<std::string>().find(
            "not one of this check's queries or keys") != std::string::npos);

  Run stub = run(runner, json{{"function", "linear_attention_step"},
                              {"calls",
                               {{{"S", wire::from_matrix(Eigen::MatrixXd::Zero(2, 3))},
                                 {"z", {0.0, 0.0}},
                                 {"q", {1.0, 0.0}},
                                 {"k", {1.0, 0.0}},
                                 {"v", {1.0, 2.0, 3.0}},
                                 {"phi", {{"name", "relu"}}}}}}});
  REQUIRE(stub.reply.is_object());
  CHECK(stub.reply.at("outcome") == "not_implemented");
  CHECK(stub.reply.at("call") == 0);
  CHECK(stub.reply.at("what").get<std::string>().find("linear_attention_step") !=
        std::string::npos);
}

TEST_CASE("runner: the heap meter sees 100 MB held inside the call, not the harness around it") {
  const auto runner = runner_for("behaviours", "flops");
  Run big =
      run(runner, json{{"function", "attention_flops"},
                       {"calls", {{{"T", 100}, {"d_phi", 1}, {"d_v", 1}, {"order", "left"}}}}});
  INFO(big.outcome.output);
  REQUIRE(big.reply.is_object());
  CHECK(big.reply.at("outcome") == "returned");
  CHECK(big.reply["results"][0]["value"] == 42);
  CHECK(big.reply.at("peak_heap_bytes").get<std::uint64_t>() >= (100u << 20));
  CHECK(big.reply.at("peak_heap_bytes").get<std::uint64_t>() < (101u << 20));
  // The fake verdict it printed is only output; the reply is what the judge reads.
  CHECK(big.outcome.output.find("\"score\": 100") != std::string::npos);

  Run small =
      run(runner, json{{"function", "attention_flops"},
                       {"calls", {{{"T", 5}, {"d_phi", 1}, {"d_v", 1}, {"order", "left"}}}}});
  REQUIRE(small.reply.is_object());
  CHECK(small.reply.at("peak_heap_bytes").get<std::uint64_t>() < 4096);
}

TEST_CASE("runner: exceptions of every kind become outcomes") {
  const auto flops = runner_for("behaviours", "flops");
  Run odd = run(flops, json{{"function", "crossover_T"},
                            {"calls", {{{"d_phi", 2}, {"d_v", 3}}, {{"d_phi", 7}, {"d_v", 3}}}}});
  REQUIRE(odd.reply.is_object());
  CHECK(odd.reply.at("outcome") == "exception");
  CHECK(odd.reply.at("call") == 1);
  CHECK(odd.reply.at("results").size() == 1);  // the call before it returned
  CHECK(odd.reply.at("what").get<std::string>().find("not a std::exception") != std::string::npos);

  Run huge = run(flops, json{{"function", "crossover_T"}, {"calls", {{{"d_phi", 8}, {"d_v", 3}}}}});
  REQUIRE(huge.reply.is_object());
  CHECK(huge.reply.at("outcome") == "bad_alloc");

  const auto memory = runner_for("behaviours", "memory");
  Run thrown =
      run(memory,
          json{{"function", "read"},
               {"calls", {{{"S", wire::from_matrix(Eigen::MatrixXd::Ones(1, 2))}, {"q", {1.0}}}}}});
  REQUIRE(thrown.reply.is_object());
  CHECK(thrown.reply.at("outcome") == "exception");
  CHECK(thrown.reply.at("what") == "read: q is too short");

  Run stub =
      run(memory, json{{"function", "crosstalk_energy"},
                       {"calls", {{{"K", wire::from_matrix(Eigen::MatrixXd::Ones(2, 2))}}}}});
  REQUIRE(stub.reply.is_object());
  CHECK(stub.reply.at("outcome") == "not_implemented");
}

TEST_CASE("runner: an input changed through const_cast is reported") {
  const auto memory = runner_for("behaviours", "memory");
  Run r = run(memory, json{{"function", "write"},
                           {"calls",
                            {{{"K", wire::from_matrix(Eigen::MatrixXd::Ones(2, 3))},
                              {"V", wire::from_matrix(Eigen::MatrixXd::Ones(2, 4))}}}}});
  REQUIRE(r.reply.is_object());
  CHECK(r.reply.at("outcome") == "returned");
  CHECK(r.reply.at("inputs_changed") == json::array({"K"}));
  CHECK(wire::to_matrix(r.reply["results"][0]["S"]).rows() == 3);

  Run clean = run(
      memory, json{{"function", "read"},
                   {"calls",
                    {{{"S", wire::from_matrix(Eigen::MatrixXd::Ones(2, 2))}, {"q", {1.0, 2.0}}}}}});
  REQUIRE(clean.reply.is_object());
  CHECK(clean.reply.at("inputs_changed").empty());
}

TEST_CASE("runner: a bad request is the harness's error, not the student's") {
  const auto runner = runner_for("good", "flops");
  Run unknown = run(runner, json{{"function", "no_such_function"}, {"calls", json::array()}});
  REQUIRE(unknown.reply.is_object());
  CHECK(unknown.reply.at("outcome") == "harness_error");
  Run missing = run(runner, json{{"function", "crossover_T"}, {"calls", {{{"d_phi", 4}}}}});
  REQUIRE(missing.reply.is_object());
  CHECK(missing.reply.at("outcome") == "harness_error");
  CHECK(missing.reply.at("what").get<std::string>().find("d_v") != std::string::npos);
}
