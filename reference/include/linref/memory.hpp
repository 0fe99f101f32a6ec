// The outer-product associative memory.
#pragma once

#include "types.hpp"

namespace linref {

Matrix normalize_rows(const Matrix& X);                 // each row to unit length
Matrix memory_write(const Matrix& K, const Matrix& V);  // sum_s k_hat_s v_s^T, (d_k, d_v)
Vector memory_read(const Matrix& S, const Vector& q);   // S^T q_hat, (d_v)
double crosstalk_energy(const Matrix& K);               // mean_j sum_{s!=j} (k_hat_s.k_hat_j)^2
// Mean over j of the cosine between read(write(K, V), k_j) and v_j.
double retrieval_cosine(const Matrix& K, const Matrix& V);

}  // namespace linref
