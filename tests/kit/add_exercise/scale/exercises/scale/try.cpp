// Scratch program for `./kit try scale`.
#include "scale.hpp"

#include <iostream>

int main() {
  try {
    std::cout << linattn::scale(linattn::Matrix::Identity(2, 2), 3.0) << "\n";
  } catch (const std::exception& e) {
    std::cout << "scale: " << e.what() << "\n";
  }
  return 0;
}
