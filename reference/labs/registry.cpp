// The table of labs, in the seed's order. Adding a lab: a file lab_<name>.cpp with
// compute_<name>() and run_<name>(), its declarations in labs.hpp, and one line here.
#include "labs.hpp"

namespace linlab {

const std::vector<Lab>& all_labs() {
  static const std::vector<Lab> labs = {
      {"order", "cell 1", "left vs right multiplication order, timed; crossover near T = d",
       run_order},
      {"forms", "cell 2", "the three-token hand example; recurrent, parallel, chunkwise agree",
       run_forms},
      {"random-features", "cell 3", "positive random features: kernel error against d_phi",
       run_random_features},
      {"retrieval", "cell 4", "outer-product memory: retrieval cosine and crosstalk against n",
       run_retrieval},
      {"state-vs-cache", "cell 5", "MiniMax-01 state and cache sizes; state/cache break-evens",
       run_state_vs_cache},
      {"rank", "cell 6", "numerical rank of softmax and elu+1 kernel matrices", run_rank},
      {"gradients", "PyTorch block", "three forward forms; hand-derived two-pass gradients",
       run_gradients},
      {"sharpness", "first figure", "weight on the relevant key as the query is sharpened",
       run_sharpness},
      {"memory-fill", "second figure", "a d = 32 memory filled one pair at a time",
       run_memory_fill},
      {"chunk-size", "chunkwise text", "chunkwise time against chunk size, beside the other forms",
       run_chunk_size},
      {"pitfalls", "pitfalls box", "negative features, a bf16 state, the temperature dropped",
       run_pitfalls},
      {"backward-memory", "training text", "backward-pass memory: prefix states vs two-pass sums",
       run_backward_memory},
  };
  return labs;
}

const Lab* find_lab(const std::string& name) {
  for (const Lab& lab : all_labs())
    if (name == lab.name) return &lab;
  return nullptr;
}

}  // namespace linlab
