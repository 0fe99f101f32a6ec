#include "probes.hpp"

#include "common/wire.hpp"

namespace grader::chunkwise {
namespace {

ChunkCase hand_example(Eigen::Index chunk) {
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;
  return {Q, K, V, phi_spec("elu_plus_one"), chunk, 0.0};
}

}  // namespace

json chunk_calls(const std::vector<ChunkCase>& cases) {
  json calls = json::array();
  for (const ChunkCase& c : cases)
    calls.push_back(json{{"Q", wire::from_matrix(c.Q)},
                         {"K", wire::from_matrix(c.K)},
                         {"V", wire::from_matrix(c.V)},
                         {"phi", c.phi},
                         {"chunk", c.chunk},
                         {"eps", c.eps}});
  // Taylor and random features travel as tables (see with_feature_tables).
  return with_feature_tables(calls);
}

ChunkCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_k, Eigen::Index d_v,
                      json phi, Eigen::Index chunk, double eps, double scale) {
  Matrix Q = random_matrix(rng, T, d_k, scale), K = random_matrix(rng, T, d_k, scale);
  return {Q, K, random_matrix(rng, T, d_v), std::move(phi), chunk, eps};
}

json calls_hand_example(std::uint64_t) {
  return chunk_calls({hand_example(1), hand_example(2), hand_example(3), hand_example(4)});
}
json calls_uneven_last_chunk(std::uint64_t seed) {
  linref::Rng rng(seed);
  const json elu = phi_spec("elu_plus_one");
  return chunk_calls({random_case(rng, 10, 3, 5, elu, 4, 0.0, 1.0),
                      random_case(rng, 11, 4, 2, elu, 3, 0.0, 1.0),
                      random_case(rng, 7, 3, 3, elu, 6, 0.0, 1.0)});
}
json calls_chunk_one(std::uint64_t seed) {
  linref::Rng rng(seed);
  const json elu = phi_spec("elu_plus_one");
  return chunk_calls(
      {random_case(rng, 9, 3, 4, elu, 1, 0.0, 1.0), random_case(rng, 1, 2, 3, elu, 1, 0.0, 1.0)});
}
json calls_chunk_at_least_T(std::uint64_t seed) {
  linref::Rng rng(seed);
  const json elu = phi_spec("elu_plus_one");
  return chunk_calls({random_case(rng, 8, 3, 4, elu, 8, 0.0, 1.0),
                      random_case(rng, 8, 3, 4, elu, 9, 0.0, 1.0),
                      random_case(rng, 5, 2, 3, elu, 1000, 0.0, 1.0)});
}
json calls_many_chunk_sizes(std::uint64_t seed) {
  linref::Rng rng(seed);
  const Matrix Omega = linref::gaussian_omega(6, 3, rng);
  const ChunkCase base = random_case(rng, 13, 3, 4, phi_spec_random(Omega), 1, 0.0, 0.5);
  std::vector<ChunkCase> cases;
  for (Eigen::Index chunk : {2, 3, 5, 6, 12}) {
    ChunkCase c = base;
    c.chunk = chunk;
    cases.push_back(c);
  }
  return chunk_calls(cases);
}
json calls_unequal_widths(std::uint64_t seed) {
  linref::Rng rng(seed);
  const Matrix Omega = linref::gaussian_omega(9, 3, rng);
  return chunk_calls({random_case(rng, 12, 2, 3, phi_spec("taylor"), 5, 0.0, 0.7),
                      random_case(rng, 10, 3, 2, phi_spec_random(Omega), 4, 0.0, 0.5)});
}
json calls_constant_values(std::uint64_t seed) {
  linref::Rng rng(seed);
  ChunkCase c = random_case(rng, 12, 3, 4, phi_spec("elu_plus_one"), 5, 0.0, 1.0);
  const Vector value = random_vector(rng, 4);
  for (Eigen::Index t = 0; t < c.V.rows(); ++t) c.V.row(t) = value.transpose();
  return chunk_calls({c});
}
json calls_large_eps(std::uint64_t seed) {
  linref::Rng rng(seed);
  return chunk_calls({random_case(rng, 9, 3, 2, phi_spec("elu_plus_one"), 4, 10.0, 1.0)});
}
// The time rule: one problem at T = 512 and at 8 T = 4096 tokens, chunks of 64, d = 32.
json calls_time(std::uint64_t seed) {
  linref::Rng rng(seed);
  const json elu = phi_spec("elu_plus_one");
  return chunk_calls({random_case(rng, 512, 32, 32, elu, 64, 1e-6, 0.5),
                      random_case(rng, 4096, 32, 32, elu, 64, 1e-6, 0.5)});
}
json calls_random_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  const Matrix Omega = linref::orthogonal_omega(12, 4, rng);
  const Eigen::Index T1 = random_size(rng, 20, 40), T2 = random_size(rng, 15, 30);
  return chunk_calls(
      {random_case(rng, T1, 2, 5, phi_spec("taylor"), random_size(rng, 2, 9), 0.0, 0.6),
       random_case(rng, T2, 4, 3, phi_spec_random(Omega), random_size(rng, 2, 9), 0.0, 0.4)});
}

}  // namespace grader::chunkwise
