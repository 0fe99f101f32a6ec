// Scratch program for `./kit try backward`: yours to edit, never graded. It runs the textbook's
// three tokens, as features, through your gradients with dO rows (1, 0) and eps = 0, and prints
// your numbers beside the hand-out's (typed in below from the hand derivation, not computed by
// any reference code).
#include "backward.hpp"

#include <iostream>

using namespace linattn;

namespace {

void show(const char* name, const Matrix& got, const Matrix& want) {
  std::cout << name << ", yours:\n"
            << got << "\n"
            << name << ", by hand:\n"
            << want << "\n  largest difference: "
            << (got.rows() == want.rows() && got.cols() == want.cols()
                    ? (got - want).cwiseAbs().maxCoeff()
                    : -1)
            << "\n\n";
}

}  // namespace

int main() {
  Matrix FQ(3, 2), FK(3, 2), V(3, 2), dO(3, 2);
  FQ << 1, 1, 2, 1, 1, 2;  // phi(q_t), elu + 1 of the book's queries: (T, d_phi)
  FK << 2, 1, 1, 2, 1, 1;  // phi(k_t)
  V << 1, 0, 0, 1, 1, 1;   // (T, d_v)
  dO << 1, 0, 1, 0, 1, 0;  // L = the sum of the outputs' first coordinates
  Matrix dFQ(3, 2), dFK(3, 2), dV(3, 2);
  dFQ << 0, 0, 1.0 / 27, -2.0 / 27, 1.0 / 18, -1.0 / 36;
  dFK << 173.0 / 1296, 154.0 / 1296, -223.0 / 1296, -206.0 / 1296, 5.0 / 144, 10.0 / 144;
  dV << 17.0 / 9, 0, 31.0 / 36, 0, 1.0 / 4, 0;
  std::cout << "FQ =\n"
            << FQ << "\nFK =\n"
            << FK << "\nV =\n"
            << V << "\ndO =\n"
            << dO << "\neps = 0\n\n";
  try {
    const AttentionGrads g = causal_linear_attention_backward(FQ, FK, V, dO, 0.0);
    show("dFQ", g.dFQ, dFQ);
    show("dFK", g.dFK, dFK);
    show("dV", g.dV, dV);
  } catch (const NotImplemented& e) {
    std::cout << "not implemented yet (" << e.what() << ")\n";
  } catch (const std::exception& e) {
    std::cout << "threw " << e.what() << "\n";
  }
  return 0;
}
