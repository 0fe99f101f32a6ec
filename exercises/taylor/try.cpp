// Scratch program for `./kit try taylor`: yours to edit, never graded. The textbook's pair
// q = (1, 2), k = (3, 1), whose score is s = 5, beside the book's numbers (typed in below).
#include "taylor.hpp"

#include <iostream>

using namespace linattn;

int main() {
  Matrix X(2, 2);
  X << 1, 2,  // q
      3, 1;   // k
  std::cout << "q = (1, 2), k = (3, 1), s = q.k = 5\n";
  std::cout << "the book: phi(q).phi(k) = 1 + s + s^2/2 = 1 + 5 + 12.5 = 18.5, with 1 + 2 + 4 = 7 "
               "features each\n";
  try {
    const Matrix F = taylor_features(X);  // (2, 1 + d + d^2)
    std::cout << "your features (one row each):\n" << F << "\n";
    if (F.rows() == 2) std::cout << "your phi(q).phi(k) = " << F.row(0).dot(F.row(1)) << "\n";
  } catch (const std::exception& e) {
    std::cout << "taylor_features: " << e.what() << "\n";
  }
  std::cout << "\nthe book: the kernel is lowest at s = -1 and grows again below it\n";
  return 0;
}
