// Platform-independent random numbers. std::mt19937_64's output is fixed by the standard;
// std::normal_distribution's is not, so the normal sampler here is our own (Box-Muller).
#pragma once

#include "types.hpp"

#include <random>

namespace linref {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  double uniform();     // in [0, 1), 53 random bits
  double normal();      // standard normal
  double chi(int dof);  // norm of a dof-dimensional standard normal vector
  Matrix normal_matrix(Eigen::Index rows, Eigen::Index cols);  // i.i.d. N(0, 1)
  Vector normal_vector(Eigen::Index n);
  Matrix unit_rows(Eigen::Index rows, Eigen::Index cols);  // rows uniform on the sphere
  std::uint64_t next_u64();

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace linref
