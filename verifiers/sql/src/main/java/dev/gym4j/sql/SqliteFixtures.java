package dev.gym4j.sql;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Small SQLite databases an environment ships as SQL scripts, built into a fresh temporary directory when the
 * real databases are absent, and removed when the server stops.
 */
public final class SqliteFixtures {
  private SqliteFixtures() {}

  /**
   * A new directory under the system's temporary one (named from {@code prefix}) holding one database per name,
   * each built from the resource {@code fixtures/<name>.sql} beside {@code owner}, at
   * {@code location.apply(directory, name)}.
   */
  public static Path build(Class<?> owner, String prefix, List<String> names, BiFunction<Path, String, Path> location)
      throws IOException, SQLException {
    Path dir = Files.createTempDirectory(prefix);
    for (String name : names) {
      Path db = location.apply(dir, name);
      Files.createDirectories(db.getParent());
      String script;
      try (InputStream in = owner.getResourceAsStream("fixtures/" + name + ".sql")) {
        if (in == null) {
          throw new IOException("no resource fixtures/" + name + ".sql beside " + owner.getSimpleName());
        }
        script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
          Statement statement = connection.createStatement()) {
        statement.executeUpdate(script);
      }
    }
    return dir;
  }

  /** Removes a directory {@link #build} made, with everything in it. */
  public static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
