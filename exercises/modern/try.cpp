// Scratch program for `./kit try modern`: yours to edit, never graded. It runs the hand-out's
// two worked examples through your functions and prints your numbers beside the hand-out's
// (typed in below from README.md, not computed by any reference code).
#include "modern.hpp"

#include <cmath>
#include <iostream>

using namespace linattn;

namespace {

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

// Largest |got - want|, or -1 when the shapes differ.
double difference(const Matrix& got, const Matrix& want) {
  if (got.rows() != want.rows() || got.cols() != want.cols()) return -1;
  return (got - want).cwiseAbs().maxCoeff();
}

}  // namespace

int main() {
  {
    // mlstm: d_k = d_v = 2, f = 1/2 throughout, i = (1, 2, 1, 1).
    Matrix Q(4, 2), K(4, 2), V(4, 2), book(4, 2);
    Q << 2, 0, 1, 1, 0, -4, 1, 0;  // (T, d_k)
    K << 1, 0, 0, 1, 1, 1, 0, -1;
    V << 1, 0, 0, 2, 1, 1, 2, 0;  // (T, d_v)
    Vector f(4), i(4);
    f << 0.5, 0.5, 0.5, 0.5;
    i << 1, 2, 1, 1;
    book << 1, 0, 0.2, 1.6, -0.5, -1.5, 0.625, 0.5;
    std::cout << "mlstm, the hand-out's four tokens\nQ =\n"
              << Q << "\nK =\n"
              << K << "\nV =\n"
              << V << "\nf = " << f.transpose() << "\ni = " << i.transpose() << "\n";
    std::cout << "the hand-out: n_t^T q_t = 2, 2.5, -8, 0.625, and h =\n" << book << "\n";
    attempt("mlstm", [&] {
      const Matrix H = mlstm(Q, K, V, f, i);
      std::cout << "yours:\n" << H << "\n  largest difference: " << difference(H, book) << "\n\n";
    });
  }
  {
    // decayed_normalized_attention: d_k = 1, d_v = 2, gamma = 1/2, gain = (1, 2), eps = 0.
    Matrix Q(3, 1), K(3, 1), V(3, 2), book(3, 2);
    Q << 1, 1, -2;
    K << 2, -1, 1;
    V << 1, 0, 0, 1, -1, 2;
    Vector gain(2);
    gain << 1, 2;
    book << std::sqrt(2.0), 0, 1.3525673113, -0.8259822479, -0.1482013470, -2.8128536121;
    std::cout << "decayed_normalized_attention, the hand-out's three tokens, gamma = 0.5, "
                 "gain = (1, 2), eps = 0\n";
    std::cout << "the hand-out:\n" << book << "\n";
    attempt("decayed_normalized_attention", [&] {
      const Matrix O = decayed_normalized_attention(Q, K, V, 0.5, gain, 0.0);
      std::cout << "yours:\n"
                << O << "\n  largest difference: " << difference(O, book)
                << " (the hand-out's figures have 10 decimals)\n";
    });
  }
  return 0;
}
