// The labs' computations, apart from their printing, so that the tests can call them.
// Each lab: a result struct, compute_<lab>() (deterministic for a given seed), and
// run_<lab>() (computes, prints the table and the seed's figures, writes a plot if useful).
#pragma once

#include "lab_support.hpp"

#include <linref/linref.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace linlab {

// ---- 1. order (cell 1): the two multiplication orders, timed ----
struct OrderRow {
  Eigen::Index T;
  double left_seconds, right_seconds;  // best of five
};
struct OrderResult {
  Eigen::Index d;  // head width (d_phi = d_v = d)
  std::vector<OrderRow> rows;
  std::int64_t predicted_crossover;  // smallest T with right cheaper in FLOPs
  Eigen::Index measured_crossover;   // smallest T from which right is faster at every size
  double left_growth, right_growth;  // median time ratio per doubling over the largest sizes
  double max_order_difference;       // |left - right| of linref's kernel attention, T = 64
};
// The smallest T from which the right order is faster at every larger size measured (rows in
// increasing T); -1 when it is not faster at the largest.
Eigen::Index measured_crossover(const std::vector<OrderRow>& rows);
OrderResult compute_order(Eigen::Index d = 32, Eigen::Index T_max = 4096, int repeats = 5);
int run_order(const Options& opt, std::ostream& os);

// ---- 2. forms (cell 2): the hand example and three forms on random data ----
struct FormsResult {
  linref::Matrix hand_kernel;                                    // phi(Q) phi(K)^T, (3, 3)
  linref::Matrix hand_recurrent, hand_parallel, hand_chunkwise;  // (3, 2), eps = 0
  linref::Matrix hand_expected;                                  // (1,0), (5/9,4/9), (7/12,2/3)
  double softmax_weight_q2k1;                                    // e/(e+1), no temperature
  Eigen::Index T, d_k, d_v, chunk;
  double max_diff_parallel, max_diff_chunkwise, max_diff_chunkwise_odd;  // vs recurrent
};
FormsResult compute_forms(std::uint64_t seed = 2);
int run_forms(const Options& opt, std::ostream& os);

// ---- 3. random-features (cell 3): error of positive random features vs d_phi ----
struct RandomFeaturesRow {
  Eigen::Index d_phi;
  double half_measured, half_predicted;  // mean relative error, mean predicted relative std
  double full_measured, full_predicted;
};
struct RandomFeaturesResult {
  Eigen::Index n_q, n_k, d_k;
  int draws;                          // Omega draws per d_phi (the median draw is reported)
  double half_mean_sq, full_mean_sq;  // mean |q + k|^2 over the pairs
  std::vector<RandomFeaturesRow> rows;
};
RandomFeaturesResult compute_random_features(std::uint64_t seed = 3, int draws = 7);
int run_random_features(const Options& opt, std::ostream& os);

// ---- 4. retrieval (cell 4): outer-product memory, orthonormal vs random keys ----
struct RetrievalRow {
  Eigen::Index n;
  double ortho_cosine, ortho_crosstalk;    // nan past n = d
  double random_cosine, random_crosstalk;  // averaged over trials
  double predicted_cosine, predicted_crosstalk;
};
struct RetrievalResult {
  Eigen::Index d;
  int trials;
  std::vector<RetrievalRow> rows;
};
RetrievalResult compute_retrieval(Eigen::Index d = 64, std::uint64_t seed = 4, int trials = 20);
int run_retrieval(const Options& opt, std::ostream& os);

// ---- 5. state-vs-cache (cell 5): MiniMax-01 arithmetic and break-evens ----
struct StateCacheResult {
  // MiniMax-01, from linref::minimax01() through linref's cost functions
  std::int64_t state_numbers, state_bytes, cache_bytes_per_token, cache_bytes_2_20,
      cache_bytes_2_20_all_softmax;
  // the same, recomputed here from first principles (the lab checks linref against them)
  std::int64_t own_state_numbers, own_state_bytes, own_cache_bytes_per_token, own_cache_2_20,
      own_cache_2_20_all;
  // 32 heads of 128 against 8 KV heads of 128
  std::int64_t layer_state_numbers, kv_numbers_per_token, break_even_numbers;
  std::int64_t layer_state_bytes, kv_bytes_per_token, break_even_bytes;
  // one head of 128, state with normalizer against its own cache (2 * 128 numbers per token)
  std::int64_t head_state_numbers;
  double head_break_even_tokens;
};
StateCacheResult compute_state_vs_cache();
int run_state_vs_cache(const Options& opt, std::ostream& os);

// ---- 6. rank (cell 6): numerical ranks of kernel matrices ----
struct RankResult {
  Eigen::Index T, d_k;
  double scale;  // entries of Q and K are N(0, scale^2); scores use 1/sqrt(d_k)
  Eigen::Index softmax_rank, softmax_block_rank, elu_rank, elu_block_rank, elu_masked_rank;
  linref::Vector softmax_sv, elu_sv;  // singular values, descending
  double softmax_tol, elu_tol;        // thresholds used
  std::vector<std::pair<double, Eigen::Index>> softmax_rank_by_scale;
};
// Numerical rank: number of singular values above sigma_max * max(rows, cols) * 2^-52.
Eigen::Index numerical_rank(const linref::Matrix& A, double* tol = nullptr,
                            linref::Vector* sv = nullptr);
RankResult compute_rank(std::uint64_t seed = 6);
int run_rank(const Options& opt, std::ostream& os);

// ---- 7. gradients (PyTorch block): forms agree; hand gradients vs quadratic and FD ----
struct GradientsResult {
  Eigen::Index T, d_k, d_v;
  double forms_quadratic_vs_recurrent, forms_cumsum_vs_recurrent;  // max abs difference
  double grad_running_vs_quadratic;  // max abs diff over dQ, dK, dV, relative to max |grad|
  Eigen::Index fd_T, fd_d_k, fd_d_v;
  double fd_step;
  double grad_running_vs_fd;       // max abs diff, relative to max |grad|
  std::int64_t cumsum_bytes_seed;  // T = 8192, d = 128, float32
  std::int64_t cumsum_bytes_here;  // this lab's size, float64
};
GradientsResult compute_gradients(std::uint64_t seed = 7);
int run_gradients(const Options& opt, std::ostream& os);

// ---- 8. sharpness (first figure): weight on the relevant key as the query grows ----
struct SharpnessRow {
  double sharpness;
  double softmax, elu, relu, taylor;
  std::vector<double> rf;  // one per d_phi in SharpnessResult::rf_dphi (mean over draws)
};
struct SharpnessResult {
  Eigen::Index n_keys, d_k;
  std::vector<Eigen::Index> rf_dphi;
  int rf_draws;
  std::vector<SharpnessRow> rows;
  double elu_limit_predicted, elu_at_large;  // relu(q)^T phi(k) limit vs a very long query
  double large_sharpness;
  // ten draws at sharpness 1, d_phi = 512
  std::vector<double> misplaced, kernel_error;
};
SharpnessResult compute_sharpness(std::uint64_t seed = 8);
// The lab's construction, shared with the lab book's widget: keys K (32, 16) and the query q
// (1, 16), both divided by d_k^{1/4}, q = K's row 0; rf_draws draws of Omega for each d_phi,
// drawn in the order given (the lab's own d_phi first, so the lab's numbers stay), and the
// generator left where the draws ended.
struct SharpnessProblem {
  linref::Matrix K, q;
  std::vector<Eigen::Index> rf_dphi;
  std::vector<std::vector<linref::Matrix>> omegas;  // [d_phi index][draw]
  linref::Rng rng;
};
SharpnessProblem sharpness_problem(std::uint64_t seed, const std::vector<Eigen::Index>& rf_dphi,
                                   int rf_draws);
enum class SharpnessMap { Softmax, Elu, Relu, RandomFeatures, Taylor };
// The weights of the query scaled by c over the 32 keys under one map (random features: the
// mean over the draws for d_phi, which must be one of the problem's).
linref::Vector sharpness_weights(const SharpnessProblem& p, SharpnessMap map, double c,
                                 Eigen::Index d_phi = 0);
// Random features alone: the weights under one draw of Omega (0 <= draw < the problem's draws).
linref::Vector sharpness_weights_draw(const SharpnessProblem& p, double c, Eigen::Index d_phi,
                                      std::size_t draw);
// The same draw's kernel values against the exact exp(score): the mean over the keys of
// |estimate - exact| / exact (the seed's "kernel values off by").
double sharpness_kernel_error(const SharpnessProblem& p, double c, Eigen::Index d_phi,
                              std::size_t draw);
int run_sharpness(const Options& opt, std::ostream& os);

// ---- 9. memory-fill (second figure): writing pairs one at a time into a d = 32 memory ----
struct MemoryFillResult {
  Eigen::Index d, n_max;
  double shared_weight;  // correlated keys: k = a u + sqrt(1 - a^2) r, a = shared_weight
  int trials;
  std::vector<double> ortho, random, correlated;  // mean retrieval cosine after n writes
  std::vector<double> random_predicted, correlated_predicted;  // index n - 1
};
MemoryFillResult compute_memory_fill(std::uint64_t seed = 9, int trials = 20);
// The lab's pieces, shared with the lab book's widget. Each trial draws, from one generator:
// the values V (n_max, d) ~ N(0, 1), then orthonormal, random and correlated keys, in that order.
enum class MemoryKeys { Orthonormal, Random, Correlated };
// n_max unit keys of width d, (n_max, d); orthonormal keys stop at d rows; a: the weight of the
// shared direction in correlated keys.
linref::Matrix memory_fill_keys(MemoryKeys kind, Eigen::Index n_max, Eigen::Index d, double a,
                                linref::Rng& rng);
// Writes the pairs one at a time (S += k v^T) into a zero memory; after write n, entry n - 1
// holds the cosine between read(S, k_j) and v_j for every stored pair j = 0..n-1.
std::vector<std::vector<double>> memory_fill_cosines(const linref::Matrix& K,
                                                     const linref::Matrix& V, Eigen::Index n_max);
int run_memory_fill(const Options& opt, std::ostream& os);

// ---- 10. chunk-size (text on training and prefill): chunkwise time against chunk size ----
struct ChunkSizeRow {
  Eigen::Index chunk;
  double chunkwise_seconds;   // linref's chunkwise form, best of the rounds
  double gemm_seconds;        // the same products as plain dense GEMMs (no mask, no division)
  double gemm_flops;          // their FLOPs: 2 T C (d_phi + d_v) + 4 T d_phi d_v for C | T
  double max_diff_recurrent;  // max |chunkwise - recurrent|
};
struct ChunkSizeResult {
  Eigen::Index T, d_phi, d_v;
  int rounds;  // the parallel form runs in at most 2
  double recurrent_seconds, parallel_seconds;
  double yardstick_seconds, yardstick_flops;  // one (d x T)(T x d) GEMM
  double max_diff_parallel;                   // max |parallel - recurrent|
  double output_scale;                        // max |output|
  std::vector<ChunkSizeRow> rows;             // in the order of the chunk sizes asked for
  Eigen::Index fastest_chunk;                 // the row with the smallest chunkwise time
};
std::vector<Eigen::Index> default_chunk_sizes();  // 8, 16, ..., 1024
// Times (and checks) every form on one random problem with elu+1 features.
ChunkSizeResult compute_chunk_size(Eigen::Index T = 4096, Eigen::Index d_phi = 64,
                                   Eigen::Index d_v = 64,
                                   std::vector<Eigen::Index> chunks = default_chunk_sizes(),
                                   int rounds = 5, std::uint64_t seed = 10);
Eigen::Index fastest_chunk(const ChunkSizeResult& r);
// One line from the measurements: the fastest chunk size, whether it lies in the seed's
// 64..256, the sizes within 10% of it, and its speed against the recurrent and parallel forms.
std::string chunk_size_conclusion(const ChunkSizeResult& r);
int run_chunk_size(const Options& opt, std::ostream& os);

// ---- 11. pitfalls (the box of pitfalls): negative features, bf16 state, dropped temperature ----
// (a) One row per feature map on the same random data (T tokens, d_k = d_v = d).
struct DenominatorRow {
  std::string map;
  double min_denominator;    // min over t of z_t^T phi(q_t), without eps (nan: no denominator)
  Eigen::Index nonpositive;  // tokens with z_t^T phi(q_t) <= 0
  double min_abs_ratio;      // min over t of |den_t| / sum_{s<=t} |phi(q_t)^T phi(k_s)|
  Eigen::Index cancelled;    // tokens with that ratio below 0.01
  double max_output_ratio;   // max |o| / max |v| (at most 1 when every weight is positive)
};
// identity, SiLU, elu+1, then identity without denominator and with an RMS-normalized output.
std::vector<DenominatorRow> compute_pitfall_denominators(std::uint64_t seed = 11,
                                                         Eigen::Index T = 1024,
                                                         Eigen::Index d = 16);
// (b) float32 -> the nearest bf16 value (8 significant bits), ties to even, kept as a float.
float round_to_bf16(float x);
struct Bf16Row {
  Eigen::Index T;  // rows at T = 256, 1024, 4096, ... (every fourfold) up to T_max
  double state_error_bf16, state_error_f32;    // |S_T - S_T(double)|_F / |S_T(double)|_F
  double z_error_bf16, z_error_f32;            // the same for z_T
  double output_error_bf16, output_error_f32;  // mean relative output error since the last row
  double lost_bf16, lost_f32;  // share of nonzero updates since the last row that changed nothing
};
struct Bf16Result {
  Eigen::Index d;           // d_phi = d_v
  double double_vs_linref;  // max |the lab's double recurrence - linref's|: the truth is right
  std::vector<Bf16Row> rows;
};
Bf16Result compute_pitfall_bf16(std::uint64_t seed = 12, Eigen::Index T_max = 65536,
                                Eigen::Index d = 16);
// (c) Positive random features fed q, k scaled by d_k^{-1/4} (row 0) or as they are (row 1).
struct TemperatureRow {
  bool temperature;
  double slope;  // least squares of log(estimate) on q^T k: 1/sqrt(d_k) or 1
  double error_vs_tempered, error_vs_untempered;          // median |estimate / kernel - 1|
  double misplaced_vs_tempered, misplaced_vs_untempered;  // weight moved vs either softmax
};
struct TemperatureResult {
  Eigen::Index n_q, n_k, d_k, d_phi;
  double entry_std;    // entries of q and k are N(0, entry_std^2)
  double softmax_gap;  // weight the two softmax kernels place differently
  std::vector<TemperatureRow> rows;
};
TemperatureResult compute_pitfall_temperature(std::uint64_t seed = 13, Eigen::Index d_phi = 65536);
int run_pitfalls(const Options& opt, std::ostream& os);

// ---- 12. backward-memory (text on training): prefix states against two-pass gradients ----
struct BackwardMemoryRow {  // computed from shapes, float32, d_phi = d_v = 128
  std::int64_t T;
  std::int64_t cumsum_bytes;          // T d_phi d_v * 4 (linref::stored_states_bytes)
  std::int64_t two_pass_state_bytes;  // S, z, R, r: 2 (d_phi d_v + d_phi) * 4, whatever T is
  std::int64_t two_pass_token_bytes;  // u_t and w_t between the passes: T (d_v + 1) * 4
};
struct MeasuredMemoryRow {  // linref's double-precision functions, d_phi = d_v = measure_d
  Eigen::Index T;
  std::int64_t cumsum_states_bytes, cumsum_output_bytes;     // computed
  std::int64_t two_pass_extra_bytes, two_pass_output_bytes;  // computed
  std::int64_t cumsum_measured, two_pass_measured;  // peak resident growth; -1: not measurable
};
struct BackwardMemoryResult {
  std::int64_t d_phi, d_v;
  std::int64_t seed_figure_bytes;       // T = 8192, d = 128, float32
  std::vector<BackwardMemoryRow> rows;  // T = 1024, 2048, ..., 65536
  Eigen::Index measure_d;
  bool measured;  // false when this system cannot reset and read the peak
  std::vector<MeasuredMemoryRow> measured_rows;
  double max_cumsum_vs_recurrent;  // the measured cumulative-sum runs computed the right thing
};
std::int64_t two_pass_state_bytes(std::int64_t d_phi, std::int64_t d_v, std::int64_t bytes_per);
std::int64_t two_pass_token_bytes(std::int64_t T, std::int64_t d_v, std::int64_t bytes_per);
BackwardMemoryResult compute_backward_memory(Eigen::Index measure_d = 64,
                                             std::vector<Eigen::Index> measure_T = {512, 1024, 2048,
                                                                                    4096},
                                             std::uint64_t seed = 14);
int run_backward_memory(const Options& opt, std::ostream& os);

}  // namespace linlab
