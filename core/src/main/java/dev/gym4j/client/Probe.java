package dev.gym4j.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * One GET with a deadline, to check that something listens and answers: a model server probing its upstream
 * ({@code /upstream_health}) and the command line probing an endpoint before it starts work use it. A GET that
 * gets no answer is a {@link Result} with a failure ({@code timeout} or {@code unreachable}) and one line saying
 * what failed, built from the caller's description of what it probed; it names no secret and no Java class.
 */
public final class Probe {
  private Probe() {}

  /**
   * What the GET gave: the answer, or no answer and why.
   *
   * @param response the answer (null when there was none)
   * @param failure {@code timeout} or {@code unreachable} when there was no answer, else null
   * @param detail what failed, in one line (null with an answer)
   */
  public record Result(HttpResponse<String> response, String failure, String detail) {
    public boolean answered() {
      return response != null;
    }
  }

  /** GET {@code url}; {@code what} names it in the failure line (e.g. "the model endpoint http://h/v1"). */
  public static Result get(URI url, Map<String, String> headers, Duration deadline, String what) {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(deadline).GET();
      headers.forEach(request::header);
      try (HttpClient client = HttpClient.newBuilder().connectTimeout(deadline).version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER).build()) {
        return new Result(client.send(request.build(), HttpResponse.BodyHandlers.ofString()), null, null);
      }
    } catch (HttpConnectTimeoutException e) {
      return failed("timeout", what + " did not accept a connection within " + seconds(deadline));
    } catch (HttpTimeoutException e) {
      return failed("timeout", what + " accepted the connection but did not answer within " + seconds(deadline));
    } catch (ConnectException e) {
      return failed("unreachable", what + " cannot be reached: nothing listens at " + url.getHost() + ":" + port(url));
    } catch (IOException | IllegalArgumentException e) {
      // the exception's own message may quote the URL with its credentials: only its kind is shown
      return failed("unreachable", what + " cannot be reached ("
          + e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed("timeout", "interrupted while checking " + what);
    }
  }

  /** A URL as it may be shown: user info is a secret. */
  public static String withoutUserInfo(String url) {
    try {
      URI uri = new URI(url);
      return uri.getRawUserInfo() == null ? url
          : new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getRawPath(), null, null).toString();
    } catch (URISyntaxException e) {
      return url;
    }
  }

  private static Result failed(String failure, String detail) {
    return new Result(null, failure, detail);
  }

  private static int port(URI url) {
    return url.getPort() != -1 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() / 1000.0 + " s";
  }
}
