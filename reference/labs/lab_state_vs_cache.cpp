// Lab "state-vs-cache" (cell 5): a fixed state against a growing KV cache, in numbers and
// bytes, for one layer and for MiniMax-01.
#include "labs.hpp"

#include <ostream>

namespace linlab {

StateCacheResult compute_state_vs_cache() {
  StateCacheResult r;
  const linref::HybridModel m = linref::minimax01();
  const std::int64_t tokens = std::int64_t{1} << 20;
  r.state_numbers = linref::linear_state_numbers(m);
  r.state_bytes = linref::linear_state_bytes(m, 4);
  r.cache_bytes_per_token = linref::softmax_cache_bytes_per_token(m, 2);
  r.cache_bytes_2_20 = linref::softmax_cache_bytes(m, tokens, false, 2);
  r.cache_bytes_2_20_all_softmax = linref::softmax_cache_bytes(m, tokens, true, 2);

  // The same from the published configuration, written out: 80 layers, 70 linear and 10
  // softmax, 64 heads of width 128, 8 KV heads; state float32, cache bf16.
  const std::int64_t linear = 70, softmax = 10, heads = 64, d = 128, kv = 8;
  r.own_state_numbers = linear * heads * d * d;
  r.own_state_bytes = r.own_state_numbers * 4;
  r.own_cache_bytes_per_token = softmax * 2 * kv * d * 2;  // key and value, bf16
  r.own_cache_2_20 = r.own_cache_bytes_per_token * tokens;
  r.own_cache_2_20_all = (linear + softmax) * 2 * kv * d * 2 * tokens;

  // One layer: 32 heads of 128 (state) against 8 KV heads of 128 (cache).
  r.layer_state_numbers = 32 * 128 * 128;
  r.kv_numbers_per_token = linref::kv_cache_bytes_per_token(8, 128, 1);  // 1 "byte" = 1 number
  r.break_even_numbers = linref::kv_cache_tokens(r.layer_state_numbers, 8, 128, 1);
  r.layer_state_bytes = r.layer_state_numbers * 4;
  r.kv_bytes_per_token = linref::kv_cache_bytes_per_token(8, 128, 2);
  r.break_even_bytes = linref::kv_cache_tokens(r.layer_state_bytes, 8, 128, 2);

  // One head of 128 with its normalizer, against that head's own key and value per token.
  r.head_state_numbers = linref::state_numbers(128, 128);
  r.head_break_even_tokens = static_cast<double>(r.head_state_numbers) / (2.0 * 128.0);
  return r;
}

int run_state_vs_cache(const Options&, std::ostream& os) {
  heading(os, "state-vs-cache", "cell 5",
          "Sizes from linref's cost functions, each beside the same number worked out from "
          "the\npublished configuration in this file.");
  const StateCacheResult r = compute_state_vs_cache();
  const double MiB = 1024.0 * 1024.0, GiB = MiB * 1024.0;
  Table t({"quantity", "seed", "linref", "by hand here"});
  t.row({"MiniMax-01 linear state, numbers", "73,400,320", fmt_int(r.state_numbers),
         fmt_int(r.own_state_numbers)});
  t.row({"  in float32", "280 MiB", fmt(r.state_bytes / MiB, 1) + " MiB",
         fmt(r.own_state_bytes / MiB, 1) + " MiB"});
  t.row({"softmax cache per token, bf16", "40,960 B", fmt_int(r.cache_bytes_per_token) + " B",
         fmt_int(r.own_cache_bytes_per_token) + " B"});
  t.row({"  at 2^20 tokens", "40 GiB", fmt(r.cache_bytes_2_20 / GiB, 1) + " GiB",
         fmt(r.own_cache_2_20 / GiB, 1) + " GiB"});
  t.row({"  all 80 layers softmax, 2^20 tokens", "320 GiB",
         fmt(r.cache_bytes_2_20_all_softmax / GiB, 1) + " GiB",
         fmt(r.own_cache_2_20_all / GiB, 1) + " GiB"});
  t.print(os);

  Table b({"one layer: 32 heads of 128 vs 8 KV heads of 128", "seed", "measured"});
  b.row({"state, numbers", "524,288", fmt_int(r.layer_state_numbers)});
  b.row({"cache per token, numbers", "2,048", fmt_int(r.kv_numbers_per_token)});
  b.row({"break-even, counting numbers", "256 tokens", fmt_int(r.break_even_numbers) + " tokens"});
  b.row({"state, float32", "2 MiB", fmt(r.layer_state_bytes / MiB, 1) + " MiB"});
  b.row({"cache per token, bf16", "4 KiB", fmt(r.kv_bytes_per_token / 1024.0, 1) + " KiB"});
  b.row({"break-even, counting bytes", "512 tokens", fmt_int(r.break_even_bytes) + " tokens"});
  b.row({"one head: state with normalizer, numbers", "16,512", fmt_int(r.head_state_numbers)});
  b.row({"  = that head's cache after", "about 64 tokens",
         fmt(r.head_break_even_tokens, 1) + " tokens"});
  b.print(os);

  const bool ok = r.state_numbers == 73400320 && r.state_bytes == 280LL * 1024 * 1024 &&
                  r.cache_bytes_per_token == 40960 && r.cache_bytes_2_20 == 40LL << 30 &&
                  r.cache_bytes_2_20_all_softmax == 320LL << 30 && r.break_even_numbers == 256 &&
                  r.break_even_bytes == 512 && r.own_state_numbers == r.state_numbers &&
                  r.own_cache_2_20_all == r.cache_bytes_2_20_all_softmax;
  seed_vs_measured(os, "every figure of the seed", "as in the 'seed' columns",
                   ok ? "all equal, linref and by hand" : "MISMATCH: see the table");
  return ok ? 0 : 1;
}

}  // namespace linlab
