// Scratch program for `./kit try memory`: yours to edit, never graded. Two orthogonal keys in two
// dimensions are read back exactly; a third key has to share the axes. The numbers the book
// states (typed in below): orthonormal keys retrieve their values exactly, at most d_k of them,
// and the crosstalk energy of n random unit keys is about (n - 1) / d_k.
#include "memory.hpp"

#include <iostream>
#include <random>

using namespace linattn;

int main() {
  Matrix K(3, 2), V(3, 2);
  // One row of K and V per line.
  // clang-format off
  K << 1, 0,
       0, 1,
       0.6, 0.8;
  V << 1, 2,
       4, 0,
       0, 5;
  // clang-format on
  try {
    const Matrix S2 = write(K.topRows(2), V.topRows(2));  // (d_k, d_v)
    std::cout << "memory of pairs 1 and 2:\n" << S2 << "\n";
    std::cout << "read with key 1: " << read(S2, K.row(0).transpose()).transpose()
              << "   (stored: 1 2)\n";
    std::cout << "read with key 2: " << read(S2, K.row(1).transpose()).transpose()
              << "   (stored: 4 0)\n";
    const Matrix S3 = write(K, V);
    std::cout << "\nwith pair 3 as well:\n" << S3 << "\n";
    for (int j = 0; j < 3; ++j)
      std::cout << "read with key " << j + 1 << ": " << read(S3, K.row(j).transpose()).transpose()
                << "   (stored: " << V.row(j) << ")\n";
  } catch (const std::exception& e) {
    std::cout << "write/read: " << e.what() << "\n";
  }
  try {
    std::mt19937 gen(7);
    std::normal_distribution<double> normal;
    const int n = 65, d_k = 64;
    Matrix R(n, d_k);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d_k; ++j) R(i, j) = normal(gen);
    std::cout << "\ncrosstalk of the three keys above: " << crosstalk_energy(K) << "\n";
    std::cout << "crosstalk of " << n << " random keys in " << d_k
              << " dimensions: " << crosstalk_energy(R)
              << "   (the book: about (n - 1) / d_k = 1)\n";
  } catch (const std::exception& e) {
    std::cout << "crosstalk_energy: " << e.what() << "\n";
  }
  return 0;
}
