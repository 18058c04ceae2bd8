package dev.gym4j.environments.spider2_lite;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.gym4j.sql.SqliteQuery;
import dev.gym4j.text.PythonText;

/**
 * Spider 2.0's result comparison as NeMo Gym's spider2_lite eval_utils has it: each gold column, as a vector,
 * must equal some predicted column (extra predicted columns are fine); strings that read as numbers are numbers,
 * null and NaN are 0, numbers match within 0.01, and with {@code ignore_order} each vector is sorted first.
 */
final class ResultSets {
  private static final Pattern PY_INT = Pattern.compile("[+-]?\\p{Nd}+(?:_\\p{Nd}+)*");
  /** Sort key of a value: (str(x), is a number), as the Python key (x is None, str(x), isinstance(x, number)). */
  private static final Comparator<Object> ORDER = Comparator.<Object, String>comparing(ResultSets::str,
      PythonText::compareCodePoints).thenComparing(value -> value instanceof Number);

  private ResultSets() {}

  /** Python's {@code compare_multi_result_sets}: any gold set matching is enough. */
  static boolean matchesAny(List<List<List<Object>>> goldSets, List<List<Object>> predicted, List<?> conditionCols,
      boolean ignoreOrder) {
    if (goldSets.isEmpty()) {
      return false;
    }
    int n = goldSets.size();
    List<List<Integer>> perSet = new ArrayList<>();
    if (conditionCols == null || conditionCols.isEmpty()) {
      for (int i = 0; i < n; i++) {
        perSet.add(List.of());
      }
    } else if (!conditionCols.stream().allMatch(c -> c instanceof List)) {
      List<Integer> shared = integers(conditionCols);
      for (int i = 0; i < n; i++) {
        perSet.add(shared);
      }
    } else {
      for (Object cols : conditionCols) {
        perSet.add(integers((List<?>) cols));
      }
    }
    for (int i = 0; i < Math.min(n, perSet.size()); i++) {
      if (matches(goldSets.get(i), predicted, perSet.get(i), ignoreOrder)) {
        return true;
      }
    }
    return false;
  }

  private static List<Integer> integers(List<?> values) {
    List<Integer> out = new ArrayList<>();
    for (Object value : values) {
      if (!(value instanceof Number number)) {
        throw new IllegalArgumentException("condition_cols must hold column numbers");
      }
      out.add(number.intValue());
    }
    return out;
  }

  /** Python's {@code compare_result_sets} with abs_tol 0.01. */
  static boolean matches(List<List<Object>> gold, List<List<Object>> predicted, List<Integer> conditionCols,
      boolean ignoreOrder) {
    if (gold.isEmpty() && predicted.isEmpty()) {
      return true;
    }
    if (gold.isEmpty() || predicted.isEmpty()) {
      return false;
    }
    int goldColumns = gold.getFirst().size();
    int predictedColumns = predicted.getFirst().size();
    List<Integer> columns = new ArrayList<>();
    for (int col : conditionCols) {
      if (col < goldColumns) {
        columns.add(col);
      }
    }
    if (columns.isEmpty()) {
      for (int i = 0; i < goldColumns; i++) {
        columns.add(i);
      }
    }
    List<List<Object>> predictedVectors = new ArrayList<>();
    for (int j = 0; j < predictedColumns; j++) {
      predictedVectors.add(vector(predicted, j));
    }
    for (int col : columns) {
      List<Object> goldVector = vector(gold, col);
      if (predictedVectors.stream().noneMatch(p -> vectorsMatch(goldVector, p, ignoreOrder))) {
        return false;
      }
    }
    return true;
  }

  private static List<Object> vector(List<List<Object>> rows, int column) {
    List<Object> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      // Python's row[col_idx]: a short row is an IndexError, which NeMo Gym does not catch
      out.add(normalize(coerce(row.get(column))));
    }
    return out;
  }

  static boolean vectorsMatch(List<Object> a, List<Object> b, boolean ignoreOrder) {
    if (a.size() != b.size()) {
      return false;
    }
    List<Object> x = new ArrayList<>(a);
    List<Object> y = new ArrayList<>(b);
    if (ignoreOrder) {
      x.sort(ORDER);
      y.sort(ORDER);
    }
    for (int i = 0; i < x.size(); i++) {
      Object u = x.get(i);
      Object v = y.get(i);
      if (u instanceof Number p && v instanceof Number q) {
        if (!isClose(p.doubleValue(), q.doubleValue())) {
          return false;
        }
      } else if (!pythonEquals(u, v)) {
        return false;
      }
    }
    return true;
  }

  /** Python's {@code math.isclose(a, b, abs_tol=1e-2)} (rel_tol 1e-9). */
  private static boolean isClose(double a, double b) {
    if (a == b) {
      return true;
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return false;
    }
    double diff = Math.abs(a - b);
    return diff <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) || diff <= 1e-2;
  }

  private static boolean pythonEquals(Object a, Object b) {
    return a == null ? b == null : a.equals(b);
  }

  /** Python's {@code _coerce}: a string that int() or float() reads becomes that number. */
  static Object coerce(Object value) {
    if (!(value instanceof String s)) {
      return value;
    }
    String t = PythonText.strip(s);
    if (PY_INT.matcher(t).matches()) {
      StringBuilder digits = new StringBuilder();
      t.codePoints().forEach(c -> {
        if (c == '-' || c == '+') {
          digits.append((char) c);
        } else if (c != '_') {
          digits.append((char) ('0' + Character.digit(c, 10)));
        }
      });
      BigInteger number = new BigInteger(digits.toString());
      return number.bitLength() < 64 ? (Object) number.longValue() : number;
    }
    Optional<Double> real = PythonText.parseFloat(s);
    return real.isPresent() ? (Object) real.get() : s;
  }

  /** Python's {@code _normalize}: None and NaN are 0. */
  static Object normalize(Object value) {
    if (value == null || value instanceof Double d && d.isNaN()) {
      return 0L;
    }
    return value;
  }

  /** Python's {@code str(x)} for the values a query gives. */
  static String str(Object value) {
    return switch (value) {
      case Double d -> PythonText.floatRepr(d);
      case SqliteQuery.Blob blob -> "b'" + blob.hex() + "'";
      default -> String.valueOf(value);
    };
  }
}
