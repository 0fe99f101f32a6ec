#!/usr/bin/env bash
# shellcheck disable=SC2016  # the backquotes in the patterns are Markdown's, not the shell's
# The numbers the documents state about the grader, against the grader (label `kit`):
#   code   every limit, time-rule size and bound, look count, cap and release size that
#          README.md, SECURITY.md, CONTRIBUTING.md, ARCHITECTURE.md or docs/instructors.md
#          states is compared with the constant in the source (read from the file that defines
#          it); then any number with a unit (ms, s, MiB, MB, GB, times, tokens...) left in those
#          documents that no row below reads fails as unchecked, so a new number needs a row
#          here (or an `example` row, for a number that is not the grader's: say why)
#          (counts in words, "four more times", "twice more", fail the same way: write digits)
#   sizes  the student kit's recorded expected values (grader/data/oracle.cbor) of each
#          assignment the instructors' guide sizes, recorded with the built grader as
#          `./kit release student` records them, against the size the guide states (within 5%:
#          the guide rounds, and a change of a check moves the figure a little)
# A failure names the document, what it states, the source file and what that gives.
# Documents are read with their line breaks folded into spaces, so a phrase may wrap.
# usage: doc_numbers.sh KIT_DIR code
#        doc_numbers.sh KIT_DIR sizes GRADER
set -u
KIT_DIR=$1
name=$2
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
errors=0
problem() { echo "PROBLEM: $*"; errors=$((errors + 1)); }

# found DOC REGEX: the regex's groups in DOC, space-separated (commas in a number dropped); the
# whole match is noted as read, for the unchecked-number pass. Exit 1 when DOC does not match.
found() {
  DOC_RE=$2 NOTE="$work/read.$(basename "$1")" perl -0777 -ne '
    s/\s+/ /g;
    exit 1 unless /$ENV{DOC_RE}/;
    my ($all, @g) = ($&, map { "$_" } grep { defined } @{^CAPTURE});
    s/,//g for @g;
    open(my $n, ">>", $ENV{NOTE}) or die; print $n "$all\n"; close $n;
    print join(" ", @g), "\n";' "$KIT_DIR/$1"
}

# source FILE REGEX: the regex's groups in FILE, each evaluated as a C++ constant expression of
# integers and doubles (`64ull << 20`, `8e-3`, `1 << 16`), space-separated.
source_value() {
  SRC_RE=$2 perl -0777 -ne '
    s/\s+/ /g;
    if (/$ENV{SRC_RE}/) {
      my @v;
      my @c = map { "$_" } grep { defined } @{^CAPTURE};
      for my $e (@c) {
        (my $x = $e) =~ s/std::size_t\{(\d+)\}/$1/g;
        $x =~ s/(\d)(?:ull|ul|ll|u|l)\b/$1/gi;
        die "not a constant: $e\n" unless $x =~ /^[\d\s.eE+\-*\/<>()]+$/;
        push @v, eval($x);
      }
      print join(" ", @v), "\n";
    }' "$KIT_DIR/$1"
}

# same LABEL DOC DOC_VALUES FILE FILE_VALUES [UNIT]: equal lists of numbers (to 1e-9,
# relatively), both in the document's UNIT.
same() {
  local label=$1 doc=$2 stated=$3 file=$4 code=$5 unit=${6:+ $6}
  if [ -z "$stated" ]; then
    problem "$doc no longer states the $label (or says it in other words: update tests/kit/doc_numbers.sh)"
    return
  fi
  if [ -z "$code" ]; then
    problem "$file no longer defines the $label where tests/kit/doc_numbers.sh looks for it"
    return
  fi
  if ! perl -e 'my @a = split " ", $ARGV[0]; my @b = split " ", $ARGV[1];
                exit 1 unless @a == @b;
                for my $i (0 .. $#a) { exit 1 if abs($a[$i] - $b[$i]) > 1e-9 * (abs($b[$i]) + 1) }' \
       "$stated" "$code"; then
    problem "the $label: $doc says $stated$unit, $file gives $code$unit"
  fi
}

# row LABEL DOC DOC_REGEX UNIT FILE FILE_REGEX: what DOC states in UNIT (ms, KiB, MiB, GiB or %;
# the source's constants are in seconds, bytes and fractions) is FILE's constant.
row() {
  local label=$1 doc=$2 unit=$4 file=$5 stated code per
  case "$unit" in
    ms) per=0.001 ;; KiB) per=1024 ;; MiB) per=1048576 ;; GiB) per=1073741824 ;; %) per=0.01 ;;
    *) echo "doc_numbers.sh: unknown unit $unit"; exit 2 ;;
  esac
  stated=$(found "$doc" "$3")
  code=$(source_value "$file" "$6" | perl -ane 'BEGIN { $u = shift @ARGV } print join(" ", map { $_ / $u } @F), "\n"' "$per")
  same "$label" "$doc" "$stated" "$file" "$code" "$unit"
}
# count LABEL DOC DOC_REGEX FILE FILE_REGEX: a number stated as the source has it.
count() {
  local stated
  stated=$(found "$2" "$3")
  same "$1" "$2" "$stated" "$4" "$(source_value "$4" "$5")"
}

# example DOC REGEX: a number that is an example, a measurement of something else than the
# grader, or a contract value other tests check; read here so that the unchecked pass skips it.
example() { found "$1" "$2" >/dev/null || problem "$1 no longer has '$2' (update tests/kit/doc_numbers.sh)"; }

SEC=grader/src/sandbox/sandbox.hpp
TR=grader/checks/shared/time_rule.hpp
RC=grader/src/engine/run_check.cpp
RR=grader/src/engine/run_runner.hpp
SLURM=grader/tools/sharded-grading/grade-class.slurm

case "$name" in
  code)
    # --- SECURITY.md: limits -------------------------------------------------------------------
    D=SECURITY.md
    count "time limit of a check" $D 'CPU time, RLIMIT_CPU\) \| (\d+) s \|' $SEC 'double wall_seconds = ([\d.]+);'
    # The wall-clock guard of a timed call: 6 times the check's limit, plus 10 s.
    guard=$(source_value $RR 'timed_call_wall_guard\(const Check& check\) \{ return (\d+) \* check.limits.wall_seconds \+ (\d+); \}')
    limit=$(source_value $SEC 'double wall_seconds = ([\d.]+);')
    same "wall-clock guard of a timed call" $D "$(found $D 'wall-clock guard of a timed call \| (\d+) s \|')" \
      "$RR (timed_call_wall_guard)" "$(perl -e 'my ($f, $p) = split " ", $ARGV[0]; print $f * $ARGV[1] + $p' "$guard" "$limit")" s
    row "address-space limit" $D 'less where a memory rule applies\) \| (\d+) GiB \|' GiB $SEC 'address_space_bytes = (\d+ull << \d+);'
    row "output kept" $D 'stdout and stderr together\) \| (\d+) KiB \|' KiB $SEC 'output_bytes_kept = (\d+ull << \d+);'
    row "file size limit" $D 'RLIMIT_FSIZE\) \| (\d+) MiB \|' MiB $SEC 'file_size_bytes = (\d+ull << \d+);'
    row "scratch quota" $D 'scratch folder \| (\d+) MiB, \d+ files \|' MiB $RR 'kScratchQuota = (\d+ull << \d+);'
    count "scratch file count" $D 'scratch folder \| \d+ MiB, (\d+) files \|' grader/src/sandbox/isolation.cpp 'kScratchFiles = (\d+);'
    count "process limit" $D 'processes and threads per user id \| (\d+) \|' grader/src/sandbox/sandbox_program.cpp 'RLIMIT_NPROC, (\d+)\)'
    count "process limit" $D 'Its process limit, (\d+), counts threads' grader/src/sandbox/sandbox_program.cpp 'RLIMIT_NPROC, (\d+)\)'
    row "reply cap" $D 'reply size \| (\d+) MiB \|' MiB $SEC 'reply_bytes_kept = (\d+ull << \d+);'
    row "source size limit" $D 'source file \| (\d+) MiB \|' MiB grader/src/util/find_files.hpp 'kMaxSourceBytes = (\d+ull << \d+);'
    row "source size limit" $D 'A source larger than (\d+) MiB is refused' MiB grader/src/util/find_files.hpp 'kMaxSourceBytes = (\d+ull << \d+);'
    row "source size limit" $D 'a source may be at most (\d+) MiB' MiB grader/src/util/find_files.hpp 'kMaxSourceBytes = (\d+ull << \d+);'
    example $D 'is 2\.00 GiB;'
    count "count of runner user ids" $D 'a range of (\d+) ids starting at \d+' grader/src/sandbox/sandbox_settings.hpp \
      'kRunnerUidCount = (\d+);'
    count "first runner user id" $D 'a range of \d+ ids starting at (\d+)' grader/src/sandbox/sandbox_settings.hpp \
      'kFirstRunnerUid = (\d+);'
    # --- SECURITY.md: replies, memory, archives ------------------------------------------------
    count "numbers a reply may hold" $D 'explain: (\d+) times their count plus ([\d,]+)\.' ${RR%.hpp}.cpp \
      'kReplyNumbersPerGiven = (\d+);.*?kReplyNumbersFloor = (\d+ << \d+);'
    row "resident slack" $D 'with (\d+) MiB of slack for code and stack' MiB $RC 'kResidentSlack = (\d+ull << \d+);'
    AU=grader/src/course/archive_unpack.hpp
    row "archive size limit" $D 'unpacks to more than (\d+) MiB' MiB $AU 'max_bytes = (\d+ull << \d+);'
    count "archive entry limit" $D 'more than (\d+) entries' $AU 'max_entries = (\d+);'
    count "archive depth limit" $D 'more than (\d+) levels of folders' $AU 'max_depth = (\d+);'
    # --- SECURITY.md: the time rule ------------------------------------------------------------
    growth=$(source_value $TR 'kTimeRuleGrowth = (\d+);')
    nsizes=$(source_value $TR 'kTimeRuleSizes = (\d+);')
    top=$(source_value grader/checks/shared/time_rule.cpp 'long tokens = (\d+) \* n;')
    # sizes N: the time rule's three sizes from the large call's N tokens, as time_rule.cpp cuts them.
    sizes() { perl -e 'my ($n, $t, $g, $k) = @ARGV; print join(" ", map { $t * $n / $g ** ($k - 1 - $_) } 0 .. $k - 1)' \
      "$1" "$top" "$growth" "$nsizes"; }
    # N of each linear-time form but causal's: the second (large) problem of its time check.
    for form in backward/oracle/probes.cpp:'json calls_time\(.*?random_case\(rng, \d+,[^;]*?random_case\(rng, (\d+),' \
                chunkwise/oracle/probes.cpp:'json calls_time\(.*?random_case\(rng, \d+,[^;]*?random_case\(rng, (\d+),' \
                modern/oracle/probes.cpp:'json calls_mlstm_time\(.*?random_mlstm\(rng, \d+,[^;]*?random_mlstm\(rng, (\d+),' \
                modern/oracle/probes.cpp:'json calls_decayed_time\(.*?random_decayed\(rng, \d+,[^;]*?random_decayed\(rng, (\d+),'; do
      file=exercises/${form%%/*}/.meta/${form#*/}; file=${file%%:*}
      n=$(source_value "$file" "${form#*:}")
      same "time rule's sizes (${form%%/*})" $D \
        "$(found $D 'timed at `T = (\d+)`, `(\d+)` and `(\d+)`;')" "$file" "$([ -n "$n" ] && sizes "$n")"
    done
    # causal's recurrence: N = a multiple of kTimeT.
    kt=$(source_value exercises/causal/.meta/sizes.hpp 'constexpr Eigen::Index kTimeT = (\d+);')
    times=$(source_value exercises/causal/.meta/oracle/oracle.cpp 'random_case\(rng, kTimeT,[^;]*random_case\(rng, (\d+) \* kTimeT,')
    same "time rule's sizes (causal)" $D "$(found $D 'cheaper per token, at `(\d+)`, `(\d+)` and `(\d+)`\.')" \
      "exercises/causal/.meta (kTimeT, oracle.cpp)" "$([ -n "$kt" ] && [ -n "$times" ] && sizes $((kt * times)))"
    count "problems per size" $D 'Each size is timed on (\d+) problems' $TR 'kTimeRuleRepeat = (\d+);'
    count "growth of the tokens per step" $D 'the two steps \(each (\d+) times the tokens\)' $TR 'kTimeRuleGrowth = (\d+);'
    count "bound of rule 1" $D 'the second step adds at most (\d+) times what the first added' $TR 'kTimeRuleMaxStepRatio = ([\d.]+);'
    same "linear and quadratic growth" $D "$(found $D 'linear cost adds (\d+) times, quadratic (\d+)\)')" $TR \
      "$growth $((growth * growth))"
    row "time step floor" $D 'a first step never being taken as less than (\d+) ms' ms $TR 'kTimeRuleNoiseFloor = ([\d.e\-]+);'
    row "time step floor share" $D 'nor than (\d+)% of the\s+smallest size' % $TR 'kTimeRuleJitterShare = ([\d.]+);'
    floor=$(source_value $TR 'kTimeRuleNoiseFloor = ([\d.e\-]+);')
    ratio=$(source_value $TR 'kTimeRuleMaxStepRatio = ([\d.]+);')
    allowance=$(perl -e 'print $ARGV[0] * $ARGV[1] * 1000' "$floor" "$ratio")
    count "start of rule 2, times the least a step counts for" $D 'once the first step is over (\d+) times the least' $TR 'kTimeRuleMaxStepRatio = ([\d.]+);'
    same "start of rule 2 under a small fixed cost" $D "$(found $D 'it is taken as \((\d+) ms,')" $TR "$allowance" ms
    count "bound of rule 2" $D 'the second adds at least (\d+) times as much' $TR 'kTimeRuleMinStepRatio = ([\d.]+);'
    count "bound of rule 3" $D 'the second step costs at most (\d+) times what a plain linear pass' $TR 'kTimeRulePaceFactor = ([\d.]+);'
    same "allowance of rule 3 (kTimeRulePaceAllowance)" $D "$(found $D 'timed as a call is, adds, plus (\d+) ms\.')" $TR "$allowance" ms
    same "smallest second step rule 1 can fail" $D "$(found $D 'cannot fail a second step under (\d+) ms')" $TR "$allowance" ms
    count "more looks" $D 'measured again up to (\d+) more times' grader/src/judge/time_looks.hpp 'kMoreLooks = (\d+);'
    count "look ceiling (s of CPU)" $D 'calls take over (\d+) s of CPU is not measured again' grader/src/judge/time_looks.hpp \
      'kLookCeiling = ([\d.]+);'
    count "time limit of a timed call" $D 'has the check.s (\d+) s to itself' $SEC 'double wall_seconds = ([\d.]+);'
    example $D 'T\^2'
    # --- docs/instructors.md -------------------------------------------------------------------
    D=docs/instructors.md
    count "longest report name (bytes)" $D 'too long for a file name \(over (\d+) bytes\)' grader/src/course/report_stem.cpp \
      'kLongest = (\d+);'
    count "hash of a shortened report name (hex digits)" $D '`reports/<start>~<(\d+) hex>\.json`' grader/src/course/report_stem.cpp \
      'find_first_not_of\("0123456789abcdef", submission.size\(\) - (\d+)\)'
    count "run of tokens compared" $D 'lie in runs of (\d+) tokens found in both files' grader/src/course/similarity.hpp 'kRun = (\d+);'
    row "share of similar pairs listed" $D 'Pairs at (\d+)% or more are listed' % grader/src/course/similarity.hpp 'kReportShare = ([\d.]+);'
    count "students graded at a time (per-student seeds)" $D 'grade-all grades (\d+) students at a time' grader/src/course/batch.cpp \
      'kStudentsAtOnce = (\d+);'
    row "memory kept for the grader" $D 'less (\d+) MiB for the grader' MiB grader/src/util/job_count.hpp 'kGraderReserve = (\d+ull << \d+);'
    row "memory per job" $D 'at (\d+) MiB per job' MiB grader/src/util/job_count.hpp 'kMemoryPerJob = (\d+ull << \d+);'
    count "Slurm shards" $D 'suit a small node: (\d+) shards \(`--array=1-\d+`\)' $SLURM '#SBATCH --array=1-(\d+) '
    count "Slurm shards (--array)" $D 'suit a small node: \d+ shards \(`--array=1-(\d+)`\)' $SLURM '#SBATCH --array=1-(\d+) '
    count "Slurm CPUs per task" $D '(\d+) CPUs and \d+ GB per task' $SLURM '#SBATCH --cpus-per-task=(\d+)'
    count "Slurm memory per task (GB)" $D '\d+ CPUs and (\d+) GB per task' $SLURM '#SBATCH --mem=(\d+)G'
    example $D '`sbatch --array=1-16 --cpus-per-task=4 --mem=6G'
    count "release size cap (MB)" $D 'at most (\d+) MB in all and no file over (\d+) MB' grader/tools/release \
      '"\$total" -gt (\d+)000000 \] \|\| \[ "\$\{largest%% \*\}" -gt (\d+)000000'
    count "release size cap checked by the test (MB)" $D 'at most (\d+) MB in all and no file over (\d+) MB' tests/kit/kit_release.sh \
      '"\$total" -le (\d+)000000 \].*?-le (\d+)000000 \]'
    example $D 'The recording of the default assignment takes about [\d.]+ MB, the advanced one about [\d.]+ MB'
    count "large call (numbers)" $D 'A call of ([\d,]+) numbers or more is stored as a pool of its first (\d+) tokens' \
      grader/src/engine/oracle_compact.hpp 'kLargeCallNumbers = (\d+);.*?kPoolTokens = (\d+);'
    count "large expected matrix (numbers, rows kept)" $D 'An expected matrix of ([\d,]+) numbers or more is stored as every (\d+)nd row' \
      grader/src/engine/oracle_compact.hpp 'kLargeMatrixNumbers = (\d+);.*?kKeptRowEvery = (\d+);'
    example $D '10% off per started day past the due time, at most 50%, nothing within the first 15 minutes'
    example $D '"Ran 1 job: a CPU quota of 0\.5 CPUs \(cgroup\)"'
    # --- ARCHITECTURE.md -----------------------------------------------------------------------
    D=ARCHITECTURE.md
    row "source size limit" $D 'link followed, at most (\d+) MiB' MiB grader/src/util/find_files.hpp 'kMaxSourceBytes = (\d+ull << \d+);'
    count "tokens of the memory rule's calls" $D 'the reference on calls of (\d+) tokens' exercises/causal/.meta/sizes.hpp \
      'kMemT = (\d+),'
    # Measurements that explain a design (issue 20's profiles), not constants of the grader.
    example $D 'two forks of a 300 MB judge cost 44 ms of CPU per start, a spawn 0\.6 ms'
    example $D 'backward: 2\.3 s, 1\.4 s with it; flops: 0\.95 s, about 0\.2 s'
    example $D 'Each is about 100 MB, made on the first compile of its exercise \(3\.5 s\)'
    # --- CONTRIBUTING.md: measurements of the tests and benchmarks, not of the grader -----------
    D=CONTRIBUTING.md
    example $D 'The label costs about 14 s of CPU, 5 s of it the labs themselves'
    example $D 'grade-all of 20 copies'
    example $D 'reaches 60% of that figure'
    example $D 'below 60% for chunks of 16 to 64'
    # --- what no row read ----------------------------------------------------------------------
    for doc in README.md SECURITY.md CONTRIBUTING.md ARCHITECTURE.md docs/instructors.md; do
      while IFS= read -r left; do
        [ -n "$left" ] && problem "$doc states a number no row of tests/kit/doc_numbers.sh checks: ...$left..."
      done < <(NOTE="$work/read.$(basename "$doc")" perl -0777 -ne '
        s/\s+/ /g;
        if (open(my $n, "<", $ENV{NOTE})) {
          local $/ = "\n";  # -0777 reads the document whole; the notes are one a line
          while (my $m = <$n>) { chomp $m; my $i = index($_, $m); substr($_, $i, length $m) = " " if $i >= 0 }
        }
        my $unit = qr/(?:ms|s|MiB|MB|KiB|KB|GiB|GB|bytes|times|tokens|numbers|rows|entries|files|levels|ids|students|shards|CPUs|problems|looks|%)/;
        # A count in words ("four more times", "twice more") can drift unseen: digits, please.
        my $word = qr/(?:two|three|four|five|six|seven|eight|nine|ten)/i;
        while (/(\d[\d,.]*\s?$unit(?![A-Za-z])|\b(?:twice|$word times) more\b|\b$word more times\b|\b$word (?:times|looks|sizes|problems|seeds)\b)/g) {
          my $at = $-[1];
          my $from = $at > 30 ? $at - 30 : 0;
          print substr($_, $from, $+[1] - $from + 20), "\n";
        }' "$KIT_DIR/$doc")
    done
    ;;
  sizes)
    GRADER=${3:?usage: doc_numbers.sh KIT_DIR sizes GRADER}
    D=docs/instructors.md
    stated=$(found $D 'The recording of the default assignment takes about ([\d.]+) MB, the advanced one about ([\d.]+) MB')
    [ -n "$stated" ] || problem "$D no longer states the recording's sizes (update tests/kit/doc_numbers.sh)"
    read -r want_default want_advanced <<<"$stated"
    for pair in "default:${want_default:-}" "advanced:${want_advanced:-}"; do
      a=${pair%%:*} want=${pair#*:}
      [ -n "$want" ] || continue
      "$GRADER" --kit "$KIT_DIR" record-oracle "$work/$a.cbor" --visible-only \
        --assignment "$KIT_DIR/assignments/$a.json" >"$work/$a.log" 2>&1 ||
        { problem "recording the assignment $a failed: $(tail -n 3 "$work/$a.log")"; continue; }
      bytes=$(stat -c %s "$work/$a.cbor")
      got=$(perl -e 'printf "%.1f", $ARGV[0] / 1e6' "$bytes")
      perl -e 'exit(abs($ARGV[0] - $ARGV[1]) <= 0.05 * $ARGV[1] ? 0 : 1)' "$want" "$got" ||
        problem "the student kit's recording of $a: $D says about $want MB, record-oracle (as ./kit release student) writes $got MB ($bytes bytes)"
      echo "$a: $D says about $want MB, the recording is $got MB"
    done
    ;;
  *)
    echo "unknown test $name"; exit 2 ;;
esac
[ "$errors" -eq 0 ] || { echo "$errors problem(s)"; exit 1; }
echo ok
