package dev.gym4j.environments.arena_judge;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Arena-Elo of a candidate against the baseline, as NeMo Gym's arena_judge computes it (after arena-hard-auto's
 * show_result.py): each task's pair of verdicts (gen-base, base-gen) becomes battles (a strong verdict counts 3
 * times), a two-player Elo is fitted by maximum-likelihood logistic regression (ties count half a win), and the
 * score is the candidate's predicted win rate against the baseline, in percent; the 95% interval comes from
 * resampling the battles with replacement, with numpy's legacy generator (MT19937) seeded as configured so that
 * the draws are numpy's.
 */
final class ArenaElo {
  static final List<String> VERDICTS = List.of("A>>B", "A>B", "A=B", "B>A", "B>>A");
  private static final double LN10 = Math.log(10);

  /** A battle's outcome, candidate as model_a. */
  enum Winner { CANDIDATE, BASELINE, TIE }

  /** score, ci_lower, ci_upper (null where NeMo Gym has NaN), invalid verdicts and tasks counted. */
  record Result(Double score, Double ciLower, Double ciUpper, int invalidScores, int n) {}

  private ArenaElo() {}

  /** @param scores per task, its [gen-base, base-gen] verdicts (null for none) */
  static Result of(List<String[]> scores, int rounds, long seed) {
    if (scores.isEmpty()) {
      return new Result(null, null, null, 0, 0);
    }
    List<Winner> battles = new ArrayList<>();
    int invalid = 0;
    for (String[] score : scores) {
      invalid += add(battles, score[0], false) ? 0 : 1;
      invalid += add(battles, score[1], true) ? 0 : 1;
    }
    if (battles.isEmpty()) {
      return new Result(null, null, null, invalid, scores.size());
    }
    boolean a = battles.contains(Winner.CANDIDATE);
    boolean b = battles.contains(Winner.BASELINE);
    if (!(a && b) && !battles.contains(Winner.TIE)) {
      return new Result(a ? 100.0 : 0.0, 0.0, 0.0, invalid, scores.size());
    }
    double elo = fit(battles);
    double[] boot = bootstrap(battles, rounds, seed);
    double score = winRate(elo);
    double lower = winRate(percentile(boot, 2.5));
    double upper = winRate(percentile(boot, 97.5));
    return new Result(score, round2(lower - score), round2(upper - score), invalid, scores.size());
  }

  /** Adds a verdict's battles; false for a missing or unknown verdict. */
  private static boolean add(List<Winner> battles, String verdict, boolean swapped) {
    if (verdict == null || !VERDICTS.contains(verdict)) {
      return false;
    }
    int weight = verdict.contains(">>") ? 3 : 1;
    Winner winner = verdict.equals("A=B") ? Winner.TIE
        : verdict.startsWith("A") != swapped ? Winner.CANDIDATE : Winner.BASELINE;
    for (int i = 0; i < weight; i++) {
      battles.add(winner);
    }
    return true;
  }

  /**
   * The candidate's Elo (the baseline's is 1000): the maximum-likelihood logistic regression without intercept
   * or penalty over the battles, each twice (a tie is a win the first time and a loss the second), with the
   * feature ln(10) for the candidate and -ln(10) for the baseline, fitted by Newton's method on the rating
   * difference (the only thing the likelihood identifies; NeMo Gym anchors the baseline at 1000 after the fit).
   * Every battle is between the same two players, so all rows share one feature value; a general fit is kept
   * so that the rule reads as NeMo Gym's.
   * @throws IllegalArgumentException when the outcomes are all of one class (scikit-learn's ValueError)
   */
  static double fit(List<Winner> battles) {
    int n = battles.size();
    double[] y = new double[2 * n];
    for (int i = 0; i < n; i++) {
      Winner w = battles.get(i);
      y[i] = w == Winner.BASELINE ? 0 : 1;
      y[n + i] = w == Winner.CANDIDATE ? 1 : 0;
    }
    double ones = Arrays.stream(y).sum();
    if (ones == 0 || ones == y.length) {
      throw new IllegalArgumentException("the battles have one outcome only");
    }
    double x = LN10; // the logit is ln(10) * (candidate coefficient - baseline coefficient)
    double theta = 0;
    for (int iteration = 0; iteration < 100; iteration++) {
      double gradient = 0;
      double hessian = 0;
      for (double target : y) {
        double p = 1 / (1 + Math.exp(-x * theta));
        gradient += (target - p) * x;
        hessian += p * (1 - p) * x * x;
      }
      double step = gradient / hessian;
      theta += step;
      if (Math.abs(step) < 1e-13) {
        break;
      }
    }
    // coefficients ±theta/2 around 0 (the minimum-norm solution lbfgs reaches from zero); Elo = 400 * coef + 1000,
    // shifted so the baseline is 1000
    return 1000 + 400 * theta;
  }

  /**
   * The candidate's Elo in each of {@code rounds} resamples of the battles ({@code DataFrame.sample(frac=1.0,
   * replace=True)} after {@code np.random.seed(seed)}); a resample of one outcome only is skipped, as NeMo Gym
   * skips it.
   */
  static double[] bootstrap(List<Winner> battles, int rounds, long seed) {
    Mt19937 random = new Mt19937(seed);
    int n = battles.size();
    List<Double> elos = new ArrayList<>();
    List<Winner> sample = new ArrayList<>(n);
    for (int round = 0; round < rounds; round++) {
      sample.clear();
      for (int i = 0; i < n; i++) {
        sample.add(battles.get(random.below(n)));
      }
      try {
        elos.add(fit(sample));
      } catch (IllegalArgumentException oneOutcome) {
        // skipped, as NeMo Gym's _bootstrap skips scikit-learn's ValueError
      }
    }
    return elos.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** numpy's percentile with linear interpolation. */
  static double percentile(double[] values, double q) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double h = (sorted.length - 1) * q / 100;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  /** The predicted win rate against the baseline (Elo 1000), in percent, rounded to 2 places as Python rounds. */
  static double winRate(double elo) {
    return round2(100 / (1 + Math.pow(10, (1000 - elo) / 400)));
  }

  /** Python's round(x, 2): the double's exact value, half to even. */
  static double round2(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return value;
    }
    return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).doubleValue();
  }

  /** MT19937 as numpy's legacy {@code np.random.seed(int)} seeds it, drawing as its {@code randint} draws. */
  static final class Mt19937 {
    private final int[] mt = new int[624];
    private int index;

    Mt19937(long seed) {
      mt[0] = (int) seed;
      for (int i = 1; i < 624; i++) {
        mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
      }
      index = 624;
    }

    int nextInt() {
      if (index >= 624) {
        for (int i = 0; i < 624; i++) {
          int y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff);
          mt[i] = mt[(i + 397) % 624] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
        }
        index = 0;
      }
      int y = mt[index++];
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      y ^= y >>> 18;
      return y;
    }

    /** A uniform integer in [0, bound): 32-bit draws masked to the bound's bits, redrawn while too large. */
    int below(int bound) {
      long range = bound - 1L;
      if (range == 0) {
        return 0;
      }
      long mask = range;
      for (int shift = 1; shift <= 16; shift <<= 1) {
        mask |= mask >>> shift;
      }
      long value;
      do {
        value = Integer.toUnsignedLong(nextInt()) & mask;
      } while (value > range);
      return (int) value;
    }
  }
}
