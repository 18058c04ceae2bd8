package dev.gym4j.server;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.DirectHandler;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProtocolConfigs;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionProvider;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Helidon's HTTP/1.1 connection, with chunked request bodies framed strictly: the CRLF after each chunk's data is
 * checked. Helidon 4.5 (and its main branch) skips those two bytes unread, so {@code 17\r\n<23 bytes>XX0\r\n\r\nGET
 * /metrics …} ends the body at {@code 0} and answers the {@code GET} as a second request: a request smuggled past any
 * proxy that frames the body strictly. Here Helidon's connection reads through a reader that refuses to skip two
 * bytes that are not CRLF. Every other two-byte skip Helidon makes on HTTP/1.1 (after the request line, each header
 * line and the headers) is over a CRLF it has just found, so only a malformed chunk trips it: the request is a 400
 * and the connection closes ({@link Routes} reads the body; Helidon closes a connection whose unread body fails).
 * Everything else, h2c upgrades included, is Helidon's own connection with the server's HTTP/1.1 and HTTP/2
 * settings. {@code Http1FramingTest} fails if a Helidon upgrade changes how chunks are read.
 */
final class Http1Framing implements ServerConnectionSelector {
  private final ServerConnectionSelector http1;

  Http1Framing(Http1Config http1, Http2Config http2) {
    this.http1 = new Http1ConnectionProvider().create("@default", http1, ProtocolConfigs.create(List.of(http1, http2)));
  }

  @Override
  public int bytesToIdentifyConnection() {
    return http1.bytesToIdentifyConnection();
  }

  @Override
  public Support supports(BufferData data) {
    return http1.supports(data);
  }

  @Override
  public Set<String> supportedApplicationProtocols() {
    return http1.supportedApplicationProtocols();
  }

  @Override
  public ServerConnection connection(ConnectionContext context) {
    return http1.connection(new Checked(context, new CrlfChecked(context.dataReader())));
  }

  /** The connection's context as Helidon made it, reading through {@link CrlfChecked}. */
  private record Checked(ConnectionContext context, DataReader reader) implements ConnectionContext {
    @Override
    public DataReader dataReader() {
      return reader;
    }

    @Override
    public ListenerContext listenerContext() {
      return context.listenerContext();
    }

    @Override
    public ExecutorService executor() {
      return context.executor();
    }

    @Override
    public DataWriter dataWriter() {
      return context.dataWriter();
    }

    @Override
    public Router router() {
      return context.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
      return context.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
      return context.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
      return context.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
      return context.localPeer();
    }

    @Override
    public boolean isSecure() {
      return context.isSecure();
    }

    @Override
    public String socketId() {
      return context.socketId();
    }

    @Override
    public String childSocketId() {
      return context.childSocketId();
    }
  }

  /**
   * Reads what the socket's reader reads, and refuses a direct two-byte skip over anything but CRLF (see the
   * class comment). Used by one connection thread at a time, as Helidon's reader is.
   */
  private static final class CrlfChecked extends DataReader {
    /** Inside a read that skips what it has read: those bytes are data, whatever their length. */
    private boolean reading;

    @SuppressWarnings("removal") // DataReader's constructor: the only way to extend it in Helidon 4.5
    CrlfChecked(DataReader socket) {
      super(() -> socket.readBuffer().readBytes(), false);
    }

    @Override
    public void skip(int length) {
      if (length == 2 && !reading && !startsWithNewLine()) {
        throw RequestException.builder()
            .type(DirectHandler.EventType.BAD_REQUEST)
            .status(Status.BAD_REQUEST_400)
            .setKeepAlive(false)
            .message("malformed chunked encoding: chunk data is not followed by CRLF")
            .safeMessage(true)
            .build();
      }
      super.skip(length);
    }

    @Override
    public BufferData readBuffer() {
      reading = true;
      try {
        return super.readBuffer();
      } finally {
        reading = false;
      }
    }

    @Override
    public BufferData readBuffer(int length) {
      reading = true;
      try {
        return super.readBuffer(length);
      } finally {
        reading = false;
      }
    }
  }
}
