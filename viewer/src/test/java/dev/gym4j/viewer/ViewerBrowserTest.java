package dev.gym4j.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Level;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The page in a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium through
 * /usr/bin/chromedriver: nothing is downloaded). Each test ends with no console error in the browser's log.
 * Rollouts are in NeMo Gym's verify-response shape (nemo_gym/rollout_collection.py writes them; the fixtures of
 * resources_servers/math_with_judge/data/example_rollouts.jsonl carry judge exchanges).
 *
 * <p>Screenshots go to target/screenshots; with {@code -Dviewer.docs=<dir>} they are also copied there (this is
 * how docs/viewer/*.png are made).
 */
class ViewerBrowserTest {
  private static final Path SHOTS = Path.of("target", "screenshots");

  @TempDir
  Path dir;

  private ChromeDriver browser;
  private Viewer viewer;

  @BeforeAll
  static void checkBrowser() throws IOException {
    assertThat(Path.of("/usr/bin/chromedriver")).as("apt-get install chromium chromium-driver").isExecutable();
    Files.createDirectories(SHOTS);
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (viewer != null) {
      viewer.close();
    }
  }

  @Test
  void overviewShowsMetricsAndCharts() throws Exception {
    Path file = sample("grpo_run.jsonl", 40, 8, 11);
    SampleRollouts.writeFailures(file, 7);
    open(List.of(file), "#/overview");
    awaitVisible(By.id("metrics-table"));
    for (String chart : List.of("chart-reward", "chart-passk", "chart-tasks", "chart-failures", "chart-tokens",
        "chart-turns")) {
      await(() -> (Boolean) js("return !!Chart.getChart(document.getElementById(arguments[0]))", chart),
          chart + " drawn");
    }
    assertThat(text(By.id("metrics-table"))).contains("pass@8/accuracy").contains("mean/reward");
    assertThat(text(By.id("overview"))).contains("320").contains("failures");
    // pass@k grows with k (NeMo Gym's unbiased estimator)
    List<?> passAtK = (List<?>) js("return Chart.getChart(document.getElementById('chart-passk')).data.datasets[0].data");
    assertThat(passAtK).hasSize(8);
    assertThat(((Number) passAtK.getLast()).doubleValue()).isGreaterThan(((Number) passAtK.getFirst()).doubleValue());
    screenshot("overview");
    assertNoConsoleErrors();
  }

  @Test
  void tableFiltersSortsGroupsAndOpensARollout() throws Exception {
    open(List.of(sample("grpo_run.jsonl", 40, 8, 11)), "#/table?file=0");
    await(() -> text(By.id("total")).startsWith("320 "), "all rows listed");
    browser.findElement(By.id("filter-min")).sendKeys("1");
    browser.findElement(By.id("filter-q")).sendKeys("Tokyo");
    browser.findElement(By.id("apply")).click();
    await(() -> !text(By.id("total")).startsWith("320 "), "the filter applied");
    List<WebElement> rewards = browser.findElements(By.cssSelector("#rows-table td.reward"));
    assertThat(rewards).isNotEmpty().allSatisfy(cell -> assertThat(cell.getText()).isEqualTo("1"));
    assertThat(browser.findElements(By.cssSelector("#rows-table td.prompt")))
        .allSatisfy(cell -> assertThat(cell.getAttribute("title")).contains("Tokyo"));
    browser.findElement(By.cssSelector("th[data-sort='output_tokens']")).click();
    await(() -> browser.findElement(By.cssSelector("th[data-sort='output_tokens']")).getAttribute("class")
        .contains("sorted-asc"), "sorted by output tokens");
    List<Integer> tokens = browser.findElements(By.cssSelector("#rows-table tr[data-row] td:nth-child(9)")).stream()
        .map(cell -> Integer.parseInt(cell.getText())).toList();
    assertThat(tokens).isNotEmpty().isSorted();
    screenshot("table");

    browser.get(viewer.uri() + "#/table?file=0&group=1");
    awaitVisible(By.id("groups-table"));
    assertThat(text(By.id("total"))).startsWith("40 groups");
    assertThat(browser.findElements(By.cssSelector("#groups-table tr.zero-var"))).isNotEmpty();
    screenshot("groups");

    browser.get(viewer.uri() + "#/table?file=0");
    awaitVisible(By.id("rows-table"));
    browser.findElement(By.cssSelector("#rows-table tr[data-row='5']")).click();
    awaitVisible(By.id("rollout"));
    assertRolloutPage();
    browser.manage().window().setSize(new Dimension(1400, 1900));
    screenshot("rollout");
    assertNoConsoleErrors();
  }

  @Test
  void rendersNemoGymJudgeExchanges() throws Exception {
    open(List.of(Path.of("data", "math_with_judge_rollouts.jsonl").toAbsolutePath()), "#/rollout?file=0&row=0");
    awaitVisible(By.id("rollout"));
    assertThat(text(By.id("verify"))).contains("extracted_answer").contains("83/499").contains("library_reward");
    assertThat(browser.findElements(By.cssSelector("details.judge"))).isNotEmpty();
    assertThat(text(By.id("reward"))).isEqualTo("0");
    assertNoConsoleErrors();
  }

  @Test
  void comparesTwoFilesSideBySide() throws Exception {
    Path before = sample("before.jsonl", 30, 4, 21);
    Path after = sample("after.jsonl", 30, 4, 22);
    open(List.of(before, after), "#/compare?a=0&b=1");
    awaitVisible(By.id("compare-table"));
    assertThat(browser.findElements(By.cssSelector("#compare-table tr[data-task]"))).hasSize(30);
    browser.findElements(By.cssSelector("#compare-table tr[data-task]")).getFirst().click();
    awaitVisible(By.id("side-by-side"));
    assertThat(browser.findElements(By.cssSelector("#side-a .conversation"))).hasSize(1);
    assertThat(browser.findElements(By.cssSelector("#side-b .conversation"))).hasSize(1);
    assertThat(text(By.id("side-a"))).contains("before.jsonl");
    assertThat(text(By.id("side-b"))).contains("after.jsonl");
    browser.manage().window().setSize(new Dimension(1400, 1500));
    screenshot("compare");
    assertNoConsoleErrors();
  }

  @Test
  void hostileRolloutTextStaysText() throws Exception {
    Path file = dir.resolve("xss.jsonl");
    Files.writeString(file, Json.write(XssRollout.row()) + "\n");
    open(List.of(file), "#/rollout?file=0&row=0");
    awaitVisible(By.id("rollout"));
    browser.findElements(By.cssSelector("details")).forEach(d -> js("arguments[0].open = true", d));
    browser.findElement(By.id("raw-toggle")).click();
    for (WebElement link : browser.findElements(By.cssSelector("#main a"))) {
      String href = link.getAttribute("href");
      assertThat(href == null ? "" : href).doesNotStartWithIgnoringCase("javascript");
    }
    assertThat(js("return window.__pwned")).isNull();
    assertThat(browser.findElements(By.cssSelector("#main script, #main img, #main iframe, #main svg, #main [onerror],"
        + " #main [onload], #main [onmouseover]"))).isEmpty();
    assertThat(text(By.id("rollout"))).contains("<script>window.__pwned").contains("<b onmouseover=alert(1)>x</b>");
    browser.get(viewer.uri() + "#/table?file=0");
    awaitVisible(By.id("rows-table"));
    assertThat(js("return window.__pwned")).isNull();
    assertNoConsoleErrors();
  }

  @Test
  void followsAFileThatIsStillBeingWritten() throws Exception {
    Path file = sample("live.jsonl", 5, 2, 31);
    open(List.of(file), "#/table?file=0");
    await(() -> text(By.id("total")).startsWith("10 "), "the first rows");
    List<String> more = Files.readAllLines(sample("more.jsonl", 3, 2, 32));
    Files.write(file, more, StandardOpenOption.APPEND);
    await(() -> text(By.id("total")).startsWith("16 "), "the appended rows in the table");
    assertThat(text(By.id("progress"))).startsWith("16 rollouts");
    assertNoConsoleErrors();
  }

  // ---- helpers

  private void assertRolloutPage() {
    assertThat(browser.findElements(By.cssSelector(".msg.system"))).hasSize(1);
    assertThat(browser.findElements(By.cssSelector(".msg.user"))).hasSize(1);
    assertThat(text(By.cssSelector(".msg.tool-call"))).containsIgnoringCase("get_weather").contains("\"city\"");
    assertThat(text(By.cssSelector(".msg.tool-output"))).contains("clear");
    WebElement reasoning = browser.findElement(By.cssSelector("details.reasoning"));
    assertThat(reasoning.getAttribute("open")).as("reasoning starts collapsed").isNull();
    assertThat(browser.findElements(By.cssSelector(".msg.assistant .md strong"))).hasSize(1);
    assertThat(browser.findElements(By.cssSelector(".msg.assistant .katex"))).hasSizeGreaterThanOrEqualTo(2);
    assertThat(browser.findElements(By.cssSelector(".msg.assistant .katex-display"))).hasSize(1);
    assertThat(text(By.cssSelector(".turn-head"))).startsWith("model turn 1");
    assertThat(text(By.id("verify"))).contains("extracted_answer").contains("expected_answer")
        .contains("usage.output_tokens");
    assertThat(browser.findElement(By.id("raw")).isDisplayed()).isFalse();
    browser.findElement(By.id("raw-toggle")).click();
    assertThat(browser.findElement(By.id("raw")).isDisplayed()).isTrue();
    assertThat(text(By.id("raw"))).contains("\"_ng_rollout_index\"");
    browser.findElement(By.id("raw-toggle")).click();
  }

  /** A generated rollouts file under target/viewer-demo, named as the page shows it (relative, as typed). */
  private Path sample(String name, int tasks, int repeats, long seed) throws IOException {
    Path demo = Path.of("target", "viewer-demo");
    Files.createDirectories(demo);
    Path file = demo.resolve(name);
    Files.deleteIfExists(demo.resolve(name.replace(".jsonl", "_failures.jsonl")));
    new SampleRollouts(tasks, repeats, seed, 0).write(file);
    return file;
  }

  private void open(List<Path> files, String route) throws InterruptedException {
    viewer = Viewer.start(files, "127.0.0.1", 0);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!viewer.indexed()) {
      assertThat(System.nanoTime()).as("indexed within 20 s").isLessThan(deadline);
      Thread.sleep(20);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1400,1000", "--no-first-run", "--disable-extensions");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    // the driver Debian installs, named explicitly: Selenium Manager never runs (it would download one)
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
    browser.get(viewer.uri() + route);
  }

  private Object js(String script, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(script, args);
  }

  private String text(By by) {
    List<WebElement> found = browser.findElements(by);
    return found.isEmpty() ? "" : found.getFirst().getText();
  }

  private void awaitVisible(By by) {
    await(() -> browser.findElements(by).stream().anyMatch(WebElement::isDisplayed), by + " shown");
  }

  private void await(Supplier<Boolean> condition, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      try {
        if (Boolean.TRUE.equals(condition.get())) {
          return;
        }
      } catch (RuntimeException e) {
        // the page is between renders: try again
      }
      String error = text(By.id("error"));
      assertThat(error).as("the page's error").isEmpty();
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " within 20 s; page: " + text(By.tagName("main")) + "; console: "
            + browser.manage().logs().get(LogType.BROWSER).getAll());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private void screenshot(String name) throws IOException {
    // charts draw on the next frame: wait for one before the picture
    js("return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))");
    byte[] png = browser.getScreenshotAs(OutputType.BYTES);
    assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    Path shot = SHOTS.resolve(name + ".png");
    Files.write(shot, png);
    String docs = System.getProperty("viewer.docs");
    if (docs != null && !docs.isBlank()) {
      Files.createDirectories(Path.of(docs));
      Files.copy(shot, Path.of(docs, name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private void assertNoConsoleErrors() {
    List<String> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
    assertThat(errors).as("console errors").isEmpty();
  }
}
