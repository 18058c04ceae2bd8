package dev.gym4j.viewer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.server.HostCheck;
import dev.gym4j.server.ServerHost;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code gym4j view}: a web server on loopback over the rollout files given to it, serving the page (from this jar,
 * libraries included: it works offline) and the JSON of {@link Api}.
 *
 * <p>Rollout text is the model's, so the page treats it as hostile: every answer carries a Content-Security-Policy
 * that allows only this server's own scripts, styles, fonts and requests, and the page renders Markdown only through
 * a sanitizer. Only the files given are read (the page names them by number), and a request naming another host
 * is refused 421 (DNS rebinding). {@link #close()} stops the server and the indexing threads.
 */
public final class Viewer implements AutoCloseable {
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  private static final HeaderName CSP_HEADER = HeaderNames.create("Content-Security-Policy");
  private static final Pattern FONT = Pattern.compile("KaTeX_[A-Za-z0-9-]+\\.(woff2|woff|ttf)");
  private static final String WEB = "/dev/gym4j/viewer/web/";

  private final List<RolloutFile> files;
  private final List<Thread> indexers = new ArrayList<>();
  private final WebServer server;
  private final String host;

  private Viewer(List<RolloutFile> files, String host, int port) {
    this.files = files;
    this.host = host;
    Api api = new Api(files);
    HostCheck hostCheck = HostCheck.of(host, List.of());
    Map<String, Asset> assets = assets();
    HttpRouting.Builder routing = HttpRouting.builder()
        .addFilter((chain, req, res) -> {
          res.header(CSP_HEADER, CSP);
          res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
          res.header(HeaderNames.create("Referrer-Policy"), "no-referrer");
          res.header(HeaderNames.create("X-Frame-Options"), "DENY");
          String refusal = hostCheck.refusal(authority(req));
          if (refusal != null) {
            json(res, Status.create(421), Json.object().put("detail", refusal));
          } else {
            chain.proceed();
          }
        })
        .get("/api/files", (req, res) -> answer(req, res, q -> api.files()))
        .get("/api/overview", (req, res) -> answer(req, res, api::overview))
        .get("/api/rows", (req, res) -> answer(req, res, api::rows))
        .get("/api/groups", (req, res) -> answer(req, res, api::groups))
        .get("/api/compare", (req, res) -> answer(req, res, api::compare))
        .get("/api/rollout", (req, res) -> answer(req, res, api::rollout))
        .get("/vendor/fonts/{name}", (req, res) -> font(req.path().pathParameters().get("name"), res))
        .get("/", (req, res) -> asset(assets.get("/"), res))
        .get("/{+path}", (req, res) -> asset(assets.get(req.path().path()), res))
        .any((req, res) -> json(res, Status.METHOD_NOT_ALLOWED_405, Json.object().put("detail",
            "the viewer only answers GET")));
    WebServer started = ServerHost.builder(host, port).routing(routing).build().start();
    if (!started.isRunning()) {
      close();
      throw new IllegalStateException("cannot listen on " + host + ":" + port + " (address in use?)");
    }
    this.server = started;
    // platform threads at low priority, after the server is up: indexing a large file must not hold the carrier
    // threads of the virtual threads that answer the page
    for (RolloutFile file : files) {
      indexers.add(Thread.ofPlatform().name("view-index-" + file.id()).daemon().priority(Thread.MIN_PRIORITY)
          .start(file::follow));
    }
  }

  /**
   * Starts a viewer over {@code paths} on {@code host:port} (port 0: any free port). Each path must be a readable
   * regular file; its failures and metrics files beside it are found by name.
   */
  public static Viewer start(List<Path> paths, String host, int port) {
    List<RolloutFile> files = new ArrayList<>();
    for (Path path : paths) {
      if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
        throw new IllegalArgumentException("not a readable file: " + path);
      }
      files.add(new RolloutFile(files.size(), path, path.toString()));
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("give at least one rollouts file");
    }
    return new Viewer(files, host, port);
  }

  /** The page's address. */
  public URI uri() {
    String shown = host.contains(":") ? "[" + host + "]" : host;
    return URI.create("http://" + shown + ":" + server.port() + "/");
  }

  /** Whether every file has been read to its end once (later appends are followed all the same). */
  public boolean indexed() {
    return files.stream().allMatch(RolloutFile::caughtUp);
  }

  /** Rows indexed so far over all files (rollouts and failures). */
  public int rowCount() {
    return files.stream().mapToInt(f -> f.rows().size()).sum();
  }

  @Override
  public void close() {
    indexers.forEach(Thread::interrupt);
    if (server != null) {
      server.stop();
    }
  }

  /** A handler's answer: JSON (an object) or the bytes of a rollout line, both as application/json. */
  @FunctionalInterface
  private interface Handler {
    Object handle(Query query) throws IOException;
  }

  private static void answer(ServerRequest req, ServerResponse res, Handler handler) {
    Map<String, String> values = new HashMap<>();
    for (String name : req.query().names()) {
      values.put(name, req.query().get(name));
    }
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    try {
      Object body = handler.handle(new Query(values));
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      res.send(body instanceof byte[] bytes ? bytes : Json.writeBytes(body));
    } catch (BadParameter e) {
      json(res, Status.BAD_REQUEST_400, Json.object().put("detail", e.getMessage()));
    } catch (Api.NotFound e) {
      json(res, Status.NOT_FOUND_404, Json.object().put("detail", e.getMessage()));
    } catch (IOException | UncheckedIOException e) {
      json(res, Status.INTERNAL_SERVER_ERROR_500, Json.object().put("detail", "cannot read the rollouts file"));
    } catch (RuntimeException e) {
      // the detail stays generic: an exception's text or class is no business of the page
      json(res, Status.INTERNAL_SERVER_ERROR_500, Json.object().put("detail", "the viewer failed to answer"));
    }
  }

  private static void asset(Asset asset, ServerResponse res) {
    if (asset == null) {
      json(res, Status.NOT_FOUND_404, Json.object().put("detail", "Not Found"));
    } else {
      res.header(HeaderNames.CONTENT_TYPE, asset.type());
      res.send(asset.bytes());
    }
  }

  private static void json(ServerResponse res, Status status, Object body) {
    res.status(status);
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(Json.writeBytes(body));
  }

  private static String authority(ServerRequest req) {
    try {
      return req.authority();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private record Asset(String type, byte[] bytes) {}

  /** The page and its libraries, by the path the page asks for; nothing else on the class path is served. */
  private static Map<String, Asset> assets() {
    Properties versions = versions();
    String js = "text/javascript; charset=utf-8";
    Map<String, Asset> assets = new HashMap<>();
    assets.put("/", new Asset("text/html; charset=utf-8", resource(WEB + "index.html")));
    assets.put("/app.js", new Asset(js, resource(WEB + "app.js")));
    assets.put("/app.css", new Asset("text/css; charset=utf-8", resource(WEB + "app.css")));
    assets.put("/vendor/chart.js", new Asset(js, webjar(versions, "chart.js", "dist/chart.umd.min.js")));
    assets.put("/vendor/marked.js", new Asset(js, webjar(versions, "marked", "lib/marked.umd.js")));
    assets.put("/vendor/purify.js", new Asset(js, webjar(versions, "dompurify", "dist/purify.min.js")));
    assets.put("/vendor/katex.js", new Asset(js, webjar(versions, "katex", "dist/katex.min.js")));
    assets.put("/vendor/katex.css", new Asset("text/css; charset=utf-8", katexCss(versions)));
    return Map.copyOf(assets);
  }

  /** KaTeX's style sheet with its font URLs pointed at {@code /vendor/fonts/}. */
  private static byte[] katexCss(Properties versions) {
    String css = new String(webjar(versions, "katex", "dist/katex.min.css"), StandardCharsets.UTF_8);
    return css.replace("url(fonts/", "url(/vendor/fonts/").getBytes(StandardCharsets.UTF_8);
  }

  private static void font(String name, ServerResponse res) {
    // the name is the client's: only a KaTeX font file name is looked up, in KaTeX's own folder
    byte[] bytes = FONT.matcher(name).matches() ? optional("/META-INF/resources/webjars/katex/"
        + versions().getProperty("katex") + "/dist/fonts/" + name) : null;
    if (bytes == null) {
      json(res, Status.NOT_FOUND_404, Json.object().put("detail", "Not Found"));
      return;
    }
    String type = name.endsWith(".woff2") ? "font/woff2" : name.endsWith(".woff") ? "font/woff" : "font/ttf";
    res.header(HeaderNames.CONTENT_TYPE, type);
    res.send(bytes);
  }

  private static Properties versions() {
    Properties versions = new Properties();
    try (InputStream in = Viewer.class.getResourceAsStream("webjars.properties")) {
      if (in == null) {
        throw new IllegalStateException("the viewer's jar lacks webjars.properties");
      }
      versions.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return versions;
  }

  private static byte[] webjar(Properties versions, String name, String file) {
    return resource("/META-INF/resources/webjars/" + name + "/" + versions.getProperty(name) + "/" + file);
  }

  private static byte[] resource(String name) {
    byte[] bytes = optional(name);
    if (bytes == null) {
      throw new IllegalStateException("the viewer's jar lacks " + name);
    }
    return bytes;
  }

  private static byte[] optional(String name) {
    try (InputStream in = Viewer.class.getResourceAsStream(name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
