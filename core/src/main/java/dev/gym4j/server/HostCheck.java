package dev.gym4j.server;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which names a server answers to in the {@code Host} header (HTTP/2: {@code :authority}), the guard against
 * DNS rebinding: a web page whose name a hostile DNS server points at 127.0.0.1 reaches a loopback server
 * from the browser, but its requests still carry the page's own name.
 *
 * <p>A server bound to a loopback address answers only to {@code localhost}, loopback addresses and the names
 * its {@code allowed_hosts} list; any other request is a 421 naming the host. A server bound elsewhere is
 * checked only when it lists {@code allowed_hosts} (then the name it binds counts too). {@code "*"} in the
 * list turns the check off. Names are compared without their port and case. Immutable.
 */
public record HostCheck(boolean active, Set<String> allowed) {
  /** No check at all: for servers built without a config (tests' scripted upstreams). */
  static final HostCheck OFF = new HostCheck(false, Set.of());

  public static HostCheck of(String bindHost, List<String> allowedHosts) {
    Set<String> listed = allowedHosts.stream().map(name -> name.strip().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
    boolean active = (isLoopback(bindHost) || !listed.isEmpty()) && !listed.contains("*");
    Set<String> allowed = new java.util.HashSet<>(listed);
    allowed.add("localhost");
    allowed.add(bare(bindHost.toLowerCase(Locale.ROOT)));
    return new HostCheck(active, Set.copyOf(allowed));
  }

  /** Why a request with this authority is refused, or null when it is served. */
  public String refusal(String authority) {
    if (!active) {
      return null;
    }
    if (authority == null || authority.isBlank()) {
      return "the request names no host; this server answers to " + String.join(", ", new java.util.TreeSet<>(allowed));
    }
    String host = hostOf(authority.strip().toLowerCase(Locale.ROOT));
    if (allowed.contains(host) || isLoopback(host)) {
      return null;
    }
    return "this server does not answer to the host " + quoted(host) + "; list it in allowed_hosts to serve it";
  }

  /** The host part of an authority ({@code name:port}, {@code [v6]:port}), brackets dropped. */
  private static String hostOf(String authority) {
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      return close < 0 ? authority : authority.substring(1, close);
    }
    int colon = authority.indexOf(':');
    return colon < 0 ? authority : authority.substring(0, colon);
  }

  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** localhost, 127.0.0.0/8 and ::1, by their text alone: a name is never resolved here. */
  static boolean isLoopback(String host) {
    String h = bare(host.toLowerCase(Locale.ROOT));
    return h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
        || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  }

  /** The host as given, cut short and stripped of control characters: it is the client's text. */
  private static String quoted(String host) {
    String shown = host.length() > 100 ? host.substring(0, 100) + "…" : host;
    return "'" + shown.replaceAll("[\\p{Cntrl}]", "?") + "'";
  }
}
