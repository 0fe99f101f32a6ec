// Lab "backward-memory" (the text on training): what the backward pass has to keep. The
// cumulative-sum form, differentiated by autograd, keeps every prefix state S_1..S_T; the
// two-pass gradients of linref keep running sums the size of one state. Bytes are computed
// from the shapes, and the working set of linref's two functions is measured where Linux lets
// us read a process's peak resident memory.
#include "labs.hpp"

#include <linref/gradients.hpp>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace linlab {

namespace {

using linref::Matrix;

// A field of /proc/self/status in bytes ("VmRSS:    1234 kB"), or -1 where there is none.
std::int64_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, field.size() + 1, field + ":") == 0)
      return std::stoll(line.substr(field.size() + 1)) * 1024;
  return -1;
}

// Runs `work` and returns the peak resident memory gained meanwhile, in bytes, or -1 if that
// cannot be measured here (the work runs either way). Linux resets a process's peak ("VmHWM")
// to its current resident size when "5" is written to /proc/self/clear_refs. Free memory that
// the allocator still holds would hide new allocations (they would reuse pages already
// resident), so it is handed back first.
template <class Work>
std::int64_t peak_growth(Work&& work) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  bool reset = false;
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    reset = static_cast<bool>(clear);
  }
  const std::int64_t rss = status_bytes("VmRSS");
  const std::int64_t hwm = status_bytes("VmHWM");
  // After a reset the peak is the current size. The kernel updates its page counts in
  // batches, so the two figures may disagree by a few hundred KiB; a peak far above the
  // current size means the reset did not happen.
  const bool measurable = reset && rss >= 0 && hwm >= 0 && hwm <= rss + 1024 * 1024;
  work();
  return measurable ? status_bytes("VmHWM") - hwm : -1;
}

}  // namespace

std::int64_t two_pass_state_bytes(std::int64_t d_phi, std::int64_t d_v, std::int64_t bytes_per) {
  // S_t and z_t in the forward pass, R_s and r_s in the backward pass.
  return 2 * (d_phi * d_v + d_phi) * bytes_per;
}

std::int64_t two_pass_token_bytes(std::int64_t T, std::int64_t d_v, std::int64_t bytes_per) {
  // u_t (d_v numbers) and w_t (one) per token, kept from the forward pass for the backward one.
  // linref also holds one chunk's scratch (two C x C matrices and C outputs, C fixed inside
  // linref); it does not grow with T and is left out of the count.
  return T * (d_v + 1) * bytes_per;
}

BackwardMemoryResult compute_backward_memory(Eigen::Index measure_d,
                                             std::vector<Eigen::Index> measure_T,
                                             std::uint64_t seed) {
  BackwardMemoryResult r;
  r.d_phi = r.d_v = 128;
  r.seed_figure_bytes = linref::stored_states_bytes(8192, 128, 128, 4);
  for (std::int64_t T = 1024; T <= 65536; T *= 2) {
    BackwardMemoryRow row;
    row.T = T;
    row.cumsum_bytes = linref::stored_states_bytes(T, r.d_phi, r.d_v, 4);
    row.two_pass_state_bytes = two_pass_state_bytes(r.d_phi, r.d_v, 4);
    row.two_pass_token_bytes = two_pass_token_bytes(T, r.d_v, 4);
    r.rows.push_back(row);
  }

  // linref works in double, so the measured runs are compared with 8-byte counts.
  r.measure_d = measure_d;
  r.measured = true;
  r.max_cumsum_vs_recurrent = 0.0;
  linref::Rng rng(seed);
  for (Eigen::Index T : measure_T) {
    const Matrix FQ = linref::elu_plus_one(rng.normal_matrix(T, measure_d));
    const Matrix FK = linref::elu_plus_one(rng.normal_matrix(T, measure_d));
    const Matrix V = rng.normal_matrix(T, measure_d), G = rng.normal_matrix(T, measure_d);
    MeasuredMemoryRow row;
    row.T = T;
    row.cumsum_states_bytes = linref::stored_states_bytes(T, measure_d, measure_d, 8);
    row.cumsum_output_bytes = T * measure_d * 8;  // O
    row.two_pass_extra_bytes =
        two_pass_state_bytes(measure_d, measure_d, 8) + two_pass_token_bytes(T, measure_d, 8);
    row.two_pass_output_bytes = 3 * T * measure_d * 8;  // dQ, dK, dV
    Matrix O;
    row.cumsum_measured = peak_growth([&] { O = linref::causal_cumsum_from_features(FQ, FK, V); });
    linref::LinearAttentionGrads g;
    row.two_pass_measured =
        peak_growth([&] { g = linref::causal_grad_running_features(FQ, FK, V, G); });
    if (row.cumsum_measured < 0 || row.two_pass_measured < 0) r.measured = false;
    const Matrix O_rec = linref::causal_recurrent_from_features(FQ, FK, V);
    r.max_cumsum_vs_recurrent =
        std::max(r.max_cumsum_vs_recurrent, (O - O_rec).cwiseAbs().maxCoeff());
    r.measured_rows.push_back(row);
  }
  return r;
}

namespace {

// The measured half of the lab: each call's peak resident memory beside the bytes computed
// from the shapes, and the verdict at the largest T.
void print_measured(const BackwardMemoryResult& r, std::ostream& os) {
  const double MiB = 1024.0 * 1024.0;
  os << "  measured: peak resident memory gained during one call of linref (double precision, "
        "d_phi = d_v = "
     << r.measure_d
     << ";\n  Linux VmHWM reset through /proc/self/clear_refs, malloc_trim "
        "first), beside the bytes\n  computed from the shapes. The calls' own results (O; "
        "dQ, dK, dV) are counted apart.\n";
  Table m({"T", "cumsum states MiB", "states + O MiB", "cumsum measured MiB", "two-pass extra MiB",
           "extra + grads MiB", "two-pass measured MiB"});
  for (const MeasuredMemoryRow& row : r.measured_rows) {
    auto measured = [&](std::int64_t bytes) {
      return bytes < 0 ? std::string("n/a") : fmt(bytes / MiB, 2);
    };
    m.row({fmt_int(row.T), fmt(row.cumsum_states_bytes / MiB, 2),
           fmt((row.cumsum_states_bytes + row.cumsum_output_bytes) / MiB, 2),
           measured(row.cumsum_measured), fmt(row.two_pass_extra_bytes / MiB, 3),
           fmt((row.two_pass_extra_bytes + row.two_pass_output_bytes) / MiB, 2),
           measured(row.two_pass_measured)});
  }
  m.print(os);
  if (!r.measured)
    os << "  (no measurement here: this system does not let the lab reset and read its peak "
          "resident\n  memory, so only the bytes computed from the shapes are shown)\n";
  os << "  the cumulative-sum form's outputs vs the recurrence: max |difference| = "
     << fmt_sci(r.max_cumsum_vs_recurrent) << '\n';

  const MeasuredMemoryRow& last = r.measured_rows.back();
  std::string verdict;
  if (r.measured)
    verdict = "at T = " + fmt_int(last.T) + ": cumulative sum " +
              fmt(last.cumsum_measured / MiB, 1) + " MiB, two-pass gradients " +
              fmt(last.two_pass_measured / MiB, 1) + " MiB (with their " +
              fmt(last.two_pass_output_bytes / MiB, 1) + " MiB of gradients)";
  else
    verdict = "not measured on this system; computed: cumulative sum " +
              fmt(last.cumsum_states_bytes / MiB, 1) + " MiB, two-pass " +
              fmt(last.two_pass_extra_bytes / MiB, 2) + " MiB at T = " + fmt_int(last.T);
  seed_vs_measured(os, "memory of the backward pass",
                   "the cumulative-sum gradients need no stored state", verdict);
}

}  // namespace

int run_backward_memory(const Options& opt, std::ostream& os) {
  heading(os, "backward-memory", "training text",
          "Memory of the backward pass of causal linear attention, one head. The cumulative-sum "
          "form\nunder autograd keeps all T prefix states S_t, (T, d_phi, d_v); linref's "
          "two-pass gradients\n(linref/gradients.hpp) keep S_t, z_t going forward and R_s, r_s "
          "going backward, plus u_t\nand w_t for every token between the passes (and one "
          "chunk's scratch, as they go a chunk of\ntokens at a time; not counted below).");
  const BackwardMemoryResult r = compute_backward_memory();
  const double MiB = 1024.0 * 1024.0;
  os << "  computed from the shapes, d_phi = d_v = " << r.d_phi << ", float32:\n";
  Table t({"T", "cumsum states MiB", "two-pass running sums KiB", "two-pass u_t, w_t MiB",
           "cumsum / two-pass"});
  for (const BackwardMemoryRow& row : r.rows)
    t.row({fmt_int(row.T), fmt(row.cumsum_bytes / MiB, 0),
           fmt(row.two_pass_state_bytes / 1024.0, 1), fmt(row.two_pass_token_bytes / MiB, 2),
           fmt(static_cast<double>(row.cumsum_bytes) /
                   static_cast<double>(row.two_pass_state_bytes + row.two_pass_token_bytes),
               0) +
               "x"});
  t.print(os);
  seed_vs_measured(os, "prefix states kept at T = 8192, d_phi = d_v = 128, float32",
                   "512 MiB for one head of one layer",
                   fmt(r.seed_figure_bytes / MiB, 0) + " MiB (" + fmt_int(r.seed_figure_bytes) +
                       " bytes = 8192 * 128 * 128 * 4)");
  os << "  The two-pass running sums do not grow with T; u_t and w_t grow like the gradient "
        "dV that\n  the backward pass returns anyway, d_v + 1 numbers per token against "
        "d_phi d_v.\n\n";

  print_measured(r, os);

  Plot p;
  p.stem = "backward_memory";
  p.title = "Backward-pass memory, one head, d_phi = d_v = 128, float32";
  p.xlabel = "T (tokens)";
  p.ylabel = "MiB";
  p.logx = p.logy = true;
  Series cumsum{"cumulative sum under autograd (all prefix states)", {}, {}};
  Series two_pass{"two-pass gradients (running sums + u_t, w_t)", {}, {}};
  for (const BackwardMemoryRow& row : r.rows) {
    cumsum.x.push_back(static_cast<double>(row.T));
    cumsum.y.push_back(row.cumsum_bytes / MiB);
    two_pass.x.push_back(static_cast<double>(row.T));
    two_pass.y.push_back((row.two_pass_state_bytes + row.two_pass_token_bytes) / MiB);
  }
  p.series = {cumsum, two_pass};
  write_plot(opt, p, os);

  const bool ok = r.seed_figure_bytes == 512LL * 1024 * 1024 && r.max_cumsum_vs_recurrent < 1e-12;
  return ok ? 0 : 1;
}

}  // namespace linlab
