// Scratch program for `./kit try causal`: yours to edit, never graded. It runs the textbook's
// three-token example through your functions and prints your numbers beside the book's
// (typed in below from the text, not computed by any reference code).
#include "causal.hpp"

#include <iostream>

using namespace linattn;

namespace {

// elu + 1, row by row: x + 1 for x >= 0, e^x below.
Matrix elu_plus_one(const Matrix& X) {
  return X.unaryExpr([](double x) { return x >= 0 ? x + 1 : std::exp(x); });
}

template <class F>
void attempt(const char* what, F f) {
  try {
    f();
  } catch (const NotImplemented& e) {
    std::cout << what << ": not implemented yet (" << e.what() << ")\n";
  } catch (const std::exception& e) {
    std::cout << what << ": threw " << e.what() << "\n";
  }
}

}  // namespace

int main() {
  Matrix Q(3, 2), K(3, 2), V(3, 2);
  Q << 0, 0, 1, 0, 0, 1;  // (T, d_k)
  K << 1, 0, 0, 1, 0, 0;
  V << 1, 0, 0, 1, 1, 1;  // (T, d_v)
  Matrix book(3, 2);      // the textbook's outputs, eps = 0
  book << 1, 0, 5.0 / 9, 4.0 / 9, 7.0 / 12, 2.0 / 3;
  std::cout << "Q =\n" << Q << "\nK =\n" << K << "\nV =\n" << V << "\nphi = elu + 1, eps = 0\n\n";
  std::cout << "the book: o_1 = (1, 0), o_2 = (5/9, 4/9), o_3 = (7/12, 2/3)\n" << book << "\n\n";
  attempt("recurrent", [&] {
    const Matrix O = causal_linear_attention_recurrent(Q, K, V, elu_plus_one, 0.0);
    std::cout << "your recurrent form:\n"
              << O << "\n  largest difference from the book: "
              << (O.rows() == 3 && O.cols() == 2 ? (O - book).cwiseAbs().maxCoeff() : -1) << "\n\n";
  });
  attempt("parallel", [&] {
    const Matrix O = causal_linear_attention_parallel(Q, K, V, elu_plus_one, 0.0);
    std::cout << "your parallel form:\n"
              << O << "\n  largest difference from the book: "
              << (O.rows() == 3 && O.cols() == 2 ? (O - book).cwiseAbs().maxCoeff() : -1) << "\n\n";
  });
  attempt("decode step", [&] {
    // The book's states: S_1 = [[2,0],[1,0]], z_1 = (2,1); S_2 = [[2,1],[1,2]], z_2 = (3,3);
    // S_3 = [[3,2],[2,3]], z_3 = (4,4).
    Matrix S = Matrix::Zero(2, 2);
    Vector z = Vector::Zero(2);
    for (int t = 0; t < 3; ++t) {
      const DecodeStep step =
          linear_attention_step(S, z, Q.row(t).transpose(), K.row(t).transpose(),
                                V.row(t).transpose(), elu_plus_one, 0.0);
      std::cout << "step " << t + 1 << ": o = " << step.o.transpose()
                << "   z = " << step.z.transpose() << "\n  S =\n"
                << step.S << "\n";
      S = step.S;
      z = step.z;
    }
  });
  return 0;
}
