// Scratch program for `./kit try flops`: yours to edit, never graded. The textbook's headline
// case, T = 65536 tokens and d_phi = d_v = 128, beside the book's figures (typed in below).
#include "flops.hpp"

#include <iostream>

using namespace linattn;

int main() {
  const std::int64_t T = 65536, d = 128;
  std::cout << "T = " << T << ", d_phi = d_v = " << d << "\n";
  std::cout << "the book: about 2.2e12 FLOPs for (phi(Q) phi(K)^T) V, about 4.3e9 for "
               "phi(Q) (phi(K)^T V), a ratio of 512 (= T / d)\n";
  try {
    const auto left = attention_flops(T, d, d, Order::Left);
    const auto right = attention_flops(T, d, d, Order::Right);
    std::cout << "yours:    Left " << left << ", Right " << right << ", ratio "
              << (right != 0 ? static_cast<double>(left) / static_cast<double>(right) : 0.0)
              << "\n";
  } catch (const std::exception& e) {
    std::cout << "attention_flops: " << e.what() << "\n";
  }
  std::cout << "\nthe book: with d_phi = d_v = d the two orders cost the same at T = d, so the "
               "right order is strictly cheaper from T = d + 1: 129 for d = 128\n";
  try {
    std::cout << "yours:    crossover_T(128, 128) = " << crossover_T(128, 128) << "\n";
  } catch (const std::exception& e) {
    std::cout << "crossover_T: " << e.what() << "\n";
  }
  return 0;
}
