package dev.gym4j.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * The pass@k family of one score name for every k at once, in time linear in the rollouts plus the largest k.
 * NeMo Gym's {@code compute_pass_majority_metrics} (nemo_gym/reward_profile.py) recomputes each k from scratch,
 * with binomials of n; here each task is walked once and its value for k is derived from its value for k − 1:
 * C(i, k)/C(n, k) = C(i, k−1)/C(n, k−1) · (i−k+1)/(n−k+1) (i the incorrect rollouts), the best of the first k is a
 * running maximum, the mean of the first k a running sum, and the majority vote a running count whose tie set only
 * grows until a new maximum resets it. A task shorter than k adds its final value to every larger k at once.
 *
 * <p>Sums across tasks are Python's (compensated, as {@code sum} of floats since Python 3.12), so the values agree
 * with NeMo Gym's to the last bits; they are not always bit for bit the same, since the order of the terms differs.
 * Each walk checks the thread's interrupt ({@link Work#check}): a request whose caller left, or whose time is up,
 * stops.
 */
final class PassCurves {
  /** pass@k per k (index k), NaN where no task has k values. */
  final double[] pass;
  /** pass@1[avg-of-k] per k, NaN where no task has a value among its first k. */
  final double[] average;
  /** majority@k per k, or null without an answer field. */
  final double[] majority;
  /** The mean of rollout r over the tasks that have it, in percent, skipping runs nobody has (per_sample_aggregate). */
  final double[] runs;

  private PassCurves(double[] pass, double[] average, double[] majority, double[] runs) {
    this.pass = pass;
    this.average = average;
    this.majority = majority;
    this.runs = runs;
  }

  /**
   * The curves of {@code name} for k = 1 … {@code maxK}, over the scores of each task's rollouts (a rollout without
   * the name is skipped, as NeMo Gym skips it) and, when {@code answers} is not null, their answers (null: none).
   */
  static PassCurves of(List<List<Map<String, Double>>> scores, List<List<JsonNode>> answers, String name, int maxK) {
    Sums pass = new Sums(maxK + 2);
    int[] passCount = new int[maxK + 2];
    Sums average = new Sums(maxK + 2);
    int[] averageCount = new int[maxK + 2];
    // a task shorter than k adds its last value to every k past its length: added once, where it starts
    Sums averageAfter = new Sums(maxK + 2);
    int[] averageAfterCount = new int[maxK + 2];
    Sums majority = answers == null ? null : new Sums(maxK + 2);
    Sums majorityAfter = answers == null ? null : new Sums(maxK + 2);
    Sums runs = new Sums(maxK + 1);
    int[] runCount = new int[maxK + 1];
    for (int t = 0; t < scores.size(); t++) {
      List<Map<String, Double>> task = scores.get(t);
      passOfTask(task, name, pass, passCount);
      Sum running = new Sum();
      int counted = 0;
      Votes votes = answers == null ? null : new Votes();
      for (int i = 0; i < task.size(); i++) {
        if ((i & 4095) == 4095) {
          Work.check();
        }
        Double value = task.get(i).get(name);
        if (value != null) {
          running.add(value);
          counted++;
          runs.add(i, value);
          runCount[i]++;
          if (votes != null && answers.get(t).get(i) != null) {
            votes.add(answers.get(t).get(i), value);
          }
        }
        if (counted > 0) {
          average.add(i + 1, running.value() / counted);
          averageCount[i + 1]++;
        }
        if (majority != null) {
          majority.add(i + 1, votes.score());
        }
      }
      if (counted > 0) {
        averageAfter.add(task.size() + 1, running.value() / counted);
        averageAfterCount[task.size() + 1]++;
      }
      if (majorityAfter != null) {
        majorityAfter.add(task.size() + 1, votes == null ? 0 : votes.score());
      }
    }
    double[] passCurve = new double[maxK + 1];
    double[] averageCurve = new double[maxK + 1];
    double[] majorityCurve = majority == null ? null : new double[maxK + 1];
    Sum averageCarried = new Sum();
    Sum majorityCarried = new Sum();
    int averageCarriedCount = 0;
    for (int k = 1; k <= maxK; k++) {
      if ((k & 4095) == 0) {
        Work.check();
      }
      passCurve[k] = passCount[k] == 0 ? Double.NaN : 100.0 * pass.value(k) / passCount[k];
      averageCarried.add(averageAfter.value(k));
      averageCarriedCount += averageAfterCount[k];
      int averaged = averageCount[k] + averageCarriedCount;
      averageCurve[k] = averaged == 0 ? Double.NaN : 100.0 * Sum.of(average.value(k), averageCarried.value())
          / averaged;
      if (majorityCurve != null) {
        majorityCarried.add(majorityAfter.value(k));
        majorityCurve[k] = 100.0 * Sum.of(majority.value(k), majorityCarried.value()) / scores.size();
      }
    }
    int present = 0;
    for (int r = 0; r < maxK; r++) {
      present += runCount[r] > 0 ? 1 : 0;
    }
    double[] runMeans = new double[present];
    for (int r = 0, j = 0; r < maxK; r++) {
      if (runCount[r] > 0) {
        runMeans[j++] = 100.0 * runs.value(r) / runCount[r];
      }
    }
    return new PassCurves(passCurve, averageCurve, majorityCurve, runMeans);
  }

  /**
   * One task's pass@k for every k up to its number of values: the unbiased estimator when every value is 0 or 1,
   * else the best of the first k.
   */
  private static void passOfTask(List<Map<String, Double>> task, String name, Sums pass, int[] passCount) {
    double[] values = task.stream().map(s -> s.get(name)).filter(v -> v != null).mapToDouble(Double::doubleValue)
        .toArray();
    int n = values.length;
    int incorrect = 0;
    boolean binary = true;
    for (double v : values) {
      binary &= v == 0.0 || v == 1.0;
      incorrect += v == 0.0 ? 1 : 0;
    }
    double allIncorrect = 1.0;
    double best = Double.NEGATIVE_INFINITY;
    for (int k = 1; k <= n; k++) {
      if ((k & 4095) == 0) {
        Work.check();
      }
      double value;
      if (binary) {
        // C(incorrect, k) / C(n, k) as a running product; 0 once k passes the incorrect ones
        allIncorrect = k > incorrect ? 0.0 : allIncorrect * (incorrect - k + 1) / (n - k + 1);
        value = k > incorrect ? 1.0 : 1.0 - allIncorrect;
      } else {
        best = Math.max(best, values[k - 1]);
        value = best;
      }
      pass.add(k, value);
      passCount[k]++;
    }
  }

  /** 1 − C(n−c, k)/C(n, k) as a running product. */
  static double unbiased(int n, int c, int k) {
    int incorrect = n - c;
    if (incorrect < k) {
      return 1.0;
    }
    double allIncorrect = 1.0;
    for (int j = 1; j <= k; j++) {
      allIncorrect = allIncorrect * (incorrect - j + 1) / (n - j + 1);
    }
    return 1.0 - allIncorrect;
  }

  /**
   * A running majority vote over (answer, score) pairs: the mean score of the pairs seen most often. Counts only
   * grow by one, so a pair reaching the top count joins the ties, and one passing it starts them anew.
   */
  private static final class Votes {
    private final Map<Vote, Integer> counts = new HashMap<>();
    private int most;
    private Sum tied = new Sum();
    private int ties;

    void add(JsonNode answer, double score) {
      int count = counts.merge(new Vote(answer, score), 1, Integer::sum);
      if (count > most) {
        most = count;
        tied = new Sum();
        ties = 0;
      }
      if (count == most) {
        tied.add(score);
        ties++;
      }
    }

    double score() {
      return ties == 0 ? 0 : tied.value() / ties;
    }
  }

  private record Vote(JsonNode answer, double score) {}

  /** Python's {@code sum} of floats (Neumaier's compensated summation, as CPython 3.12+ does it). */
  static final class Sum {
    private double sum;
    private double compensation;

    void add(double x) {
      double t = sum + x;
      compensation += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
    }

    double value() {
      return compensation != 0 && Double.isFinite(compensation) ? sum + compensation : sum;
    }

    static double of(double a, double b) {
      Sum s = new Sum();
      s.add(a);
      s.add(b);
      return s.value();
    }
  }

  /** One {@link Sum} per index, in two arrays. */
  private static final class Sums {
    private final double[] sum;
    private final double[] compensation;

    Sums(int size) {
      sum = new double[size];
      compensation = new double[size];
    }

    void add(int i, double x) {
      double s = sum[i];
      double t = s + x;
      compensation[i] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
      sum[i] = t;
    }

    double value(int i) {
      return compensation[i] != 0 && Double.isFinite(compensation[i]) ? sum[i] + compensation[i] : sum[i];
    }
  }
}
