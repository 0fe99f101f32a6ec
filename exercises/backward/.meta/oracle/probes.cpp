#include "probes.hpp"

#include "common/wire.hpp"

namespace grader::backward {

json grad_calls(const std::vector<GradCase>& cases) {
  json calls = json::array();
  for (const GradCase& c : cases)
    calls.push_back(json{{"FQ", wire::from_matrix(c.FQ)},
                         {"FK", wire::from_matrix(c.FK)},
                         {"V", wire::from_matrix(c.V)},
                         {"dO", wire::from_matrix(c.dO)},
                         {"eps", c.eps}});
  return calls;
}

GradCase random_case(linref::Rng& rng, Eigen::Index T, Eigen::Index d_phi, Eigen::Index d_v,
                     double eps) {
  Matrix FQ = random_positive_matrix(rng, T, d_phi), FK = random_positive_matrix(rng, T, d_phi);
  Matrix V = random_matrix(rng, T, d_v);
  return {FQ, FK, V, random_matrix(rng, T, d_v), eps};
}

json calls_single_token(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 1, 3, 2, 0.0), random_case(rng, 1, 1, 4, 0.0)});
}
json calls_hand_example(std::uint64_t) {
  Matrix FQ(3, 2), FK(3, 2), V(3, 2), first(3, 2), second(3, 2);
  FQ << 1, 1, 2, 1, 1, 2;  // elu+1 of the textbook's queries (0,0), (1,0), (0,1)
  FK << 2, 1, 1, 2, 1, 1;  // and keys (1,0), (0,1), (0,0)
  V << 1, 0, 0, 1, 1, 1;
  first << 1, 0, 1, 0, 1, 0;
  second << 0, 1, 0, 1, 0, 1;
  return grad_calls({{FQ, FK, V, first, 0.0}, {FQ, FK, V, second, 0.0}});
}
json calls_constant_values(std::uint64_t seed) {
  linref::Rng rng(seed);
  GradCase c = random_case(rng, 9, 3, 4, 0.0);
  const Vector value = random_vector(rng, 4);
  for (Eigen::Index t = 0; t < c.V.rows(); ++t) c.V.row(t) = value.transpose();
  return grad_calls({c});
}
json calls_random(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 9, 4, 3, 0.0), random_case(rng, 7, 3, 5, 1e-6)});
}
json calls_central(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 5, 3, 2, 0.5), random_case(rng, 4, 2, 4, 0.0)});
}
json calls_square_state(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 10, 4, 4, 0.0)});
}
json calls_large_eps(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 6, 3, 2, 10.0)});
}
// The time rule: one problem at T = 512 and at 8 T = 4096 tokens, d_phi = d_v = 32.
json calls_time(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, 512, 32, 32, 1e-6), random_case(rng, 4096, 32, 32, 1e-6)});
}
json calls_random_hidden(std::uint64_t seed) {
  linref::Rng rng(seed);
  return grad_calls({random_case(rng, random_size(rng, 20, 40), 5, 3, 0.0),
                     random_case(rng, random_size(rng, 10, 30), 2, 6, 1e-6)});
}

}  // namespace grader::backward
