// Scratch program for `./kit try chunkwise`: yours to edit, never graded. It runs the textbook's
// three-token example through your chunkwise form for chunks of 1 to 4 and prints your numbers
// beside the book's (typed in below from the text, not computed by any reference code).
#include "chunkwise.hpp"

#include <cmath>
#include <iostream>

using namespace linattn;

namespace {

// elu + 1, row by row: x + 1 for x >= 0, e^x below.
Matrix elu_plus_one(const Matrix& X) {
  return X.unaryExpr([](double x) { return x >= 0 ? x + 1 : std::exp(x); });
}

}  // namespace

int main() {
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;  // (T, d_k)
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;  // (T, d_v)
  Matrix book(3, 2);      // the textbook's outputs, eps = 0, the same for every chunk size
  book << 1, 0, 5.0 / 9, 4.0 / 9, 7.0 / 12, 2.0 / 3;
  std::cout << "Q =\n" << Q << "\nK =\n" << K << "\nV =\n" << V << "\nphi = elu + 1, eps = 0\n\n";
  std::cout << "the book: o_1 = (1, 0), o_2 = (5/9, 4/9), o_3 = (7/12, 2/3)\n" << book << "\n\n";
  std::cout << "chunks of 2 by hand: the first chunk gives (1, 0) and (5/9, 4/9) and leaves\n"
               "S = [[2, 1], [1, 2]], z = (3, 3); token 3 reads (4, 5) and 9 from them, adds\n"
               "3 v_3 and 3 from its own 1 x 1 block: (7, 8) / 12.\n\n";
  for (Eigen::Index chunk = 1; chunk <= 4; ++chunk) {
    try {
      const Matrix O = causal_linear_attention_chunkwise(Q, K, V, elu_plus_one, chunk, 0.0);
      std::cout << "chunk = " << chunk << ":\n"
                << O << "\n  largest difference from the book: "
                << (O.rows() == 3 && O.cols() == 2 ? (O - book).cwiseAbs().maxCoeff() : -1)
                << "\n\n";
    } catch (const NotImplemented& e) {
      std::cout << "chunk = " << chunk << ": not implemented yet (" << e.what() << ")\n";
      break;
    } catch (const std::exception& e) {
      std::cout << "chunk = " << chunk << ": threw " << e.what() << "\n";
    }
  }
  return 0;
}
