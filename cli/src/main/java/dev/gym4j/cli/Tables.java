package dev.gym4j.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.gym4j.head.InstanceRecord;

/** Plain-text tables for the terminal. */
final class Tables {
  private Tables() {}

  static void printInstances(PrintWriter out, String headUrl, Collection<InstanceRecord> instances) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"INSTANCE", "KIND", "IMPLEMENTATION", "URL"});
    rows.add(new String[] {"head_server", "head", "-", headUrl});
    for (InstanceRecord record : instances) {
      rows.add(new String[] {record.processName(), record.serverType(), record.name(), record.url()});
    }
    print(out, rows);
  }

  static void print(PrintWriter out, List<String[]> rows) {
    int columns = rows.getFirst().length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
