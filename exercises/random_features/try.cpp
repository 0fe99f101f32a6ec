// Scratch program for `./kit try random_features`: yours to edit, never graded. The book's
// promise (typed in below): phi(q).phi(k) estimates exp(q.k) without bias, with every feature
// positive; averaged over many draws of Omega it comes close to exp(q.k).
#include "random_features.hpp"

#include <cmath>
#include <iostream>
#include <random>

using namespace linattn;

int main() {
  const int d_k = 2, d_phi = 16, draws = 2000;
  Vector q(d_k), k(d_k);
  q << 0.3, 0.4;
  k << 0.5, -0.2;
  std::cout << "q = (0.3, 0.4), k = (0.5, -0.2), q.k = 0.07, exp(q.k) = 1.0725 (the target)\n";
  std::mt19937 gen(3);
  std::normal_distribution<double> normal;
  try {
    double sum = 0;
    double smallest_feature = 1e300;
    for (int i = 0; i < draws; ++i) {
      Matrix Omega(d_phi, d_k);  // one random direction per row
      for (int r = 0; r < d_phi; ++r)
        for (int c = 0; c < d_k; ++c) Omega(r, c) = normal(gen);
      sum += softmax_kernel_estimate(q, k, Omega);
      smallest_feature =
          std::min(smallest_feature, positive_random_features(q.transpose(), Omega).minCoeff());
    }
    std::cout << "your estimate, averaged over " << draws << " draws of Omega (" << d_phi
              << " features): " << sum / draws << "\n";
    std::cout << "smallest feature seen: " << smallest_feature
              << "   (the book: every feature is positive)\n";
  } catch (const std::exception& e) {
    std::cout << "random features: " << e.what() << "\n";
  }
  return 0;
}
