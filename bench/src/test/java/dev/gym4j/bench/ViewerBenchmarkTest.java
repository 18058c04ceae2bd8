package dev.gym4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The viewer figure on a small file (the real run is 1 GB): it prints every figure and leaves no file behind. */
class ViewerBenchmarkTest {
  @TempDir
  Path dir;

  @Test
  void printsTimeToFirstRenderAndToOpenARollout() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ViewerBenchmark.Figures figures = new ViewerBenchmark(new PrintStream(printed, true, StandardCharsets.UTF_8),
        3_000_000, dir).run();
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("viewer time to first render: ").contains("viewer time to open a rollout: ")
        .contains("viewer whole file indexed: ");
    assertThat(figures.firstRender()).isPositive().isLessThanOrEqualTo(figures.fullyIndexed());
    assertThat(figures.openLast()).isPositive();
    try (var left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }
}
