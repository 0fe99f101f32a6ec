// Slipped copies of exercise 8's two layers: mlstm and decayed_normalized_attention written
// again with one likely mistake switched on. The oracle runs them on a probe's inputs and
// hands their outputs to the judge as suspects; the sentence that names each slip to the
// student sits beside the checks, in ../checks.cpp. Oracle side only.
#pragma once

#include "probes.hpp"

#include <string>
#include <utility>
#include <vector>

namespace grader::modern {

// The slips a student is likely to make in mlstm, one at a time.
enum class MlstmSlip {
  ForgetAfterWrite,
  SwappedGates,
  NoAbsolute,
  NoFloor,
  AbsoluteNoFloor,
  PlusOne,
  FloorOnEntries,
  ReadBeforeWrite,
  NoInputGateOnN,
  NoForgetGateOnN
};

// mlstm with one slip. Q, K: (T, d_k); V: (T, d_v); f, i: (T) -> H: (T, d_v).
Matrix mlstm_slipped(const Matrix& Q, const Matrix& K, const Matrix& V, const Vector& f,
                     const Vector& i, MlstmSlip slip);

// The slips a student is likely to make in decayed_normalized_attention, one at a time.
enum class DecayedSlip {
  DecayAfterWrite,
  Sigmoid,
  NoSiluOnV,
  NoDecay,
  ReadBeforeWrite,
  RmsOverTokens,
  RmsOverAll,
  NoEps,
  EpsOutsideRoot,
  SumNotMean,
  NoGain
};

// decayed_normalized_attention with one slip -> O: (T, d_v).
Matrix decayed_slipped(const DecayedCase& c, DecayedSlip slip);

// Each slip with the sentence that names it to the student.
template <class Slip>
using SlipNames = std::vector<std::pair<Slip, std::string>>;

// The suspects of a probe: each named slip's output on case c, with its sentence. A slip whose
// output equals `expected` on this probe is left out, since naming it would only mislead.
std::vector<Suspect> mlstm_suspects(const MlstmCase& c, const Matrix& expected,
                                    const SlipNames<MlstmSlip>& names);
std::vector<Suspect> decayed_suspects(const DecayedCase& c, const Matrix& expected,
                                      const SlipNames<DecayedSlip>& names);

}  // namespace grader::modern
