package dev.gym4j.viewer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The viewer's JSON answers over the files given on the command line. A file is named by its position in that list
 * ({@code file=0}), never by a path, so a page can reach no other file. Thread-safe (reads snapshots of the files'
 * indexes).
 */
final class Api {
  static final int MAX_PAGE = 500;
  private static final Set<String> SORTS = Set.of("row", "task", "rollout", "agent", "reward", "failure",
      "input_tokens", "output_tokens", "turns");
  private static final Set<String> DIRECTIONS = Set.of("asc", "desc");

  private final List<RolloutFile> files;
  /** The last overview of each file, with the row count it was computed at: recomputed when rows arrive. */
  private final Map<Integer, Map.Entry<Integer, ObjectNode>> overviews = new java.util.concurrent.ConcurrentHashMap<>();

  Api(List<RolloutFile> files) {
    this.files = List.copyOf(files);
  }

  /** {@code GET /api/files}: every file with its indexing progress (the page polls it to follow a file). */
  ObjectNode files() {
    ObjectNode out = Json.object();
    ArrayNode list = out.putArray("files");
    files.forEach(file -> list.add(fileInfo(file)));
    return out;
  }

  static ObjectNode fileInfo(RolloutFile file) {
    List<Row> rows = file.rows();
    long failures = rows.stream().filter(Row::failures).count();
    return Json.object().put("id", file.id()).put("name", file.name()).put("rows", rows.size() - failures)
        .put("failures", failures).put("skipped_lines", file.skipped()).put("bytes", file.bytes())
        .put("indexed_bytes", file.indexedBytes()).put("indexed", file.caughtUp());
  }

  /** {@code GET /api/overview?file=N}. */
  ObjectNode overview(Query query) {
    RolloutFile file = file(query, "file");
    List<Row> rows = file.rows();
    Map.Entry<Integer, ObjectNode> cached = overviews.get(file.id());
    if (cached == null || cached.getKey() != rows.size()) {
      cached = Map.entry(rows.size(), Overview.of(file, rows));
      overviews.put(file.id(), cached);
    }
    // the file's progress is always current, the statistics are those of the rows counted
    ObjectNode answer = cached.getValue().deepCopy();
    answer.set("file", fileInfo(file));
    return answer;
  }

  /**
   * {@code GET /api/rows?file=N}: a page of the table. Filters: {@code min}, {@code max} (reward), {@code task},
   * {@code failure} (a class, {@code any} or {@code none}), {@code tool}, {@code q} (text anywhere in the row, case
   * ignored); {@code sort} (a column) and {@code dir}; {@code offset}, {@code limit} (at most {@value #MAX_PAGE}).
   */
  ObjectNode rows(Query query) throws IOException {
    RolloutFile file = file(query, "file");
    List<Row> matching = filtered(file, query);
    String sort = query.choice("sort", "row", SORTS);
    Comparator<Row> order = comparator(sort);
    if ("desc".equals(query.choice("dir", "asc", DIRECTIONS))) {
      order = order.reversed();
    }
    matching.sort(order.thenComparingInt(Row::index));
    int offset = query.integer("offset", 0, 0, Integer.MAX_VALUE);
    int limit = query.integer("limit", 50, 1, MAX_PAGE);
    ObjectNode out = Json.object();
    out.put("total", matching.size()).put("offset", offset);
    ArrayNode page = out.putArray("rows");
    matching.stream().skip(offset).limit(limit).forEach(row -> page.add(rowJson(row)));
    return out;
  }

  /**
   * {@code GET /api/groups?file=N}: the repeats of each task as a GRPO group (mean, sample std, zero variance
   * when every reward is equal), same filters as {@link #rows}; sorted by {@code sort} = task, mean or std.
   */
  ObjectNode groups(Query query) throws IOException {
    RolloutFile file = file(query, "file");
    Map<String, List<Row>> tasks = Overview.tasks(filtered(file, query).stream().filter(Row::scored).toList());
    List<ObjectNode> groups = new ArrayList<>();
    tasks.forEach((task, rows) -> groups.add(group(task, rows)));
    String sort = query.choice("sort", "task", Set.of("task", "mean", "std", "n"));
    Comparator<ObjectNode> order = sort.equals("task") ? Comparator.comparing(g -> taskOrder(g.path("task")
        .asString())) : Comparator.comparingDouble(g -> g.path(sort).asDouble());
    if ("desc".equals(query.choice("dir", "asc", DIRECTIONS))) {
      order = order.reversed();
    }
    groups.sort(order);
    int offset = query.integer("offset", 0, 0, Integer.MAX_VALUE);
    int limit = query.integer("limit", 50, 1, MAX_PAGE);
    ObjectNode out = Json.object();
    long zero = groups.stream().filter(g -> g.path("zero_variance").asBoolean()).count();
    out.put("total", groups.size()).put("offset", offset).put("zero_variance_groups", zero);
    ArrayNode page = out.putArray("groups");
    groups.stream().skip(offset).limit(limit).forEach(page::add);
    return out;
  }

  private static ObjectNode group(String task, List<Row> rows) {
    double mean = rows.stream().mapToDouble(Row::reward).average().orElse(0);
    double squares = rows.stream().mapToDouble(r -> (r.reward() - mean) * (r.reward() - mean)).sum();
    ObjectNode group = Json.object().put("task", task).put("prompt", rows.getFirst().prompt()).put("n", rows.size())
        .put("mean", mean).put("std", rows.size() > 1 ? Math.sqrt(squares / (rows.size() - 1)) : 0.0)
        .put("zero_variance", rows.stream().mapToDouble(Row::reward).distinct().count() <= 1);
    ArrayNode members = group.putArray("rollouts");
    rows.forEach(r -> members.addObject().put("row", r.index()).put("rollout", r.rollout()).put("reward", r.reward()));
    return group;
  }

  /** {@code GET /api/rollout?file=N&row=I}: the row as the file holds it. */
  byte[] rollout(Query query) throws IOException {
    RolloutFile file = file(query, "file");
    List<Row> rows = file.rows();
    int row = query.integer("row", -1, 0, Integer.MAX_VALUE);
    if (row < 0) {
      throw new BadParameter("row", "is required");
    }
    if (row >= rows.size()) {
      throw new NotFound("no row " + row + " in file " + file.id() + " (it has " + rows.size() + ")");
    }
    return file.read(rows.get(row));
  }

  /**
   * {@code GET /api/compare?a=N&b=M}: the tasks of two files side by side, mean rewards and their delta (b − a),
   * largest change first; tasks in only one file come last.
   */
  ObjectNode compare(Query query) {
    RolloutFile a = file(query, "a");
    RolloutFile b = file(query, "b");
    Map<String, List<Row>> left = Overview.tasks(a.rows().stream().filter(Row::scored).toList());
    Map<String, List<Row>> right = Overview.tasks(b.rows().stream().filter(Row::scored).toList());
    Map<String, ObjectNode> tasks = new LinkedHashMap<>();
    left.forEach((task, rows) -> tasks.computeIfAbsent(task, Api::task).set("a", side(rows)));
    right.forEach((task, rows) -> tasks.computeIfAbsent(task, Api::task).set("b", side(rows)));
    List<ObjectNode> entries = new ArrayList<>(tasks.values());
    for (ObjectNode entry : entries) {
      if (entry.has("a") && entry.has("b")) {
        entry.put("delta", entry.path("b").path("mean").asDouble() - entry.path("a").path("mean").asDouble());
      }
      entry.put("prompt", (entry.has("a") ? entry.path("a") : entry.path("b")).path("prompt").asString());
    }
    entries.sort(Comparator.comparingDouble((ObjectNode e) -> e.has("delta") ? -Math.abs(e.path("delta").asDouble())
        : Double.MAX_VALUE).thenComparing(e -> taskOrder(e.path("task").asString())));
    ObjectNode out = Json.object();
    out.set("a", fileInfo(a));
    out.set("b", fileInfo(b));
    ArrayNode list = out.putArray("tasks");
    list.addAll(entries);
    return out;
  }

  private static ObjectNode task(String key) {
    return Json.object().put("task", key);
  }

  private static ObjectNode side(List<Row> rows) {
    ObjectNode side = Json.object().put("n", rows.size())
        .put("mean", rows.stream().mapToDouble(Row::reward).average().orElse(0)).put("prompt", rows.getFirst().prompt());
    ArrayNode members = side.putArray("rows");
    rows.forEach(r -> members.add(r.index()));
    return side;
  }

  private RolloutFile file(Query query, String name) {
    int id = query.integer(name, -1, 0, files.size() - 1);
    if (id < 0) {
      throw new BadParameter(name, "is required (a file number from /api/files)");
    }
    return files.get(id);
  }

  private List<Row> filtered(RolloutFile file, Query query) throws IOException {
    double min = query.number("min", Double.NEGATIVE_INFINITY);
    double max = query.number("max", Double.POSITIVE_INFINITY);
    String task = query.text("task");
    String failure = query.text("failure");
    String tool = query.text("tool");
    Predicate<Row> keep = row -> true;
    if (query.text("min") != null || query.text("max") != null) {
      keep = keep.and(row -> row.scored() && row.reward() >= min && row.reward() <= max);
    }
    if (task != null) {
      keep = keep.and(row -> row.task().equals(task));
    }
    if (failure != null) {
      keep = keep.and(switch (failure) {
        case "any" -> row -> row.failureClass() != null;
        case "none" -> row -> row.failureClass() == null;
        default -> row -> failure.equals(row.failureClass());
      });
    }
    if (tool != null) {
      keep = keep.and(row -> row.tools().contains(tool));
    }
    List<Row> kept = new ArrayList<>();
    for (Row row : file.rows()) {
      if (keep.test(row)) {
        kept.add(row);
      }
    }
    String text = query.text("q");
    if (text == null) {
      return kept;
    }
    // the text search reads each candidate row from disk: the cost is the file's size, whatever the query
    String needle = text.toLowerCase(Locale.ROOT);
    List<Row> found = new ArrayList<>();
    for (Row row : kept) {
      if (new String(file.read(row), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains(needle)) {
        found.add(row);
      }
    }
    return found;
  }

  private static ObjectNode rowJson(Row row) {
    ObjectNode out = Json.object().put("row", row.index()).put("task", row.task()).put("rollout", row.rollout())
        .put("agent", row.agent()).put("prompt", row.prompt());
    if (row.scored()) {
      out.put("reward", row.reward());
    } else {
      out.putNull("reward");
    }
    if (row.failureClass() != null) {
      out.put("failure", row.failureClass());
    }
    ArrayNode tools = out.putArray("tools");
    row.tools().forEach(tools::add);
    out.put("input_tokens", row.inputTokens()).put("output_tokens", row.outputTokens()).put("turns", row.turns());
    return out;
  }

  private static Comparator<Row> comparator(String sort) {
    return switch (sort) {
      case "task" -> Comparator.comparing(r -> taskOrder(r.task()));
      case "rollout" -> Comparator.comparingInt(Row::rollout);
      case "agent" -> Comparator.comparing(Row::agent);
      case "reward" -> Comparator.comparingDouble(r -> r.scored() ? r.reward() : Double.NEGATIVE_INFINITY);
      case "failure" -> Comparator.comparing(r -> r.failureClass() == null ? "" : r.failureClass());
      case "input_tokens" -> Comparator.comparingInt(Row::inputTokens);
      case "output_tokens" -> Comparator.comparingInt(Row::outputTokens);
      case "turns" -> Comparator.comparingInt(Row::turns);
      default -> Comparator.comparingInt(Row::index);
    };
  }

  /** Task keys in numeric order ({@code #2} before {@code #10}); prompt hashes after them. */
  private static String taskOrder(String task) {
    return task.startsWith("#") ? String.format("#%020d", Long.parseLong(task.substring(1)) + (1L << 62)) : task;
  }

  /** A row or file that does not exist: answered 404. */
  static final class NotFound extends RuntimeException {
    NotFound(String message) {
      super(message);
    }
  }
}
