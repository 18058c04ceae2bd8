package dev.gym4j.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.gym4j.json.Json;
import io.helidon.common.parameters.Parameters;
import io.helidon.http.SetCookie;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The per-rollout session cookie of one server: named {@code <Class>___<instance>} as in NeMo Gym, so the
 * cookies of several servers sit side by side in an agent's jar. Its value is
 * {@code base64url({"session_id": …}).base64url(HMAC-SHA256)}, signed with a key drawn when the server
 * starts, so a client can carry the session but not forge or alter one.
 */
public final class SessionCookie {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final String name;
  private final SecretKeySpec key;
  /** Initialized once; each signature works on a clone, which skips the provider lookup and key set-up. */
  private final Mac prototype;

  public SessionCookie(String name) {
    this.name = name;
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.key = new SecretKeySpec(secret, "HmacSHA256");
    this.prototype = newMac();
  }

  public String name() {
    return name;
  }

  /** The session id the request's cookie carries, if it is present and its signature holds. */
  public Optional<String> read(Parameters cookies) {
    if (!cookies.contains(name)) {
      return Optional.empty();
    }
    return verify(cookies.get(name));
  }

  /** As {@link #read(Parameters)}, from cookies by name. */
  public Optional<String> read(java.util.Map<String, String> cookies) {
    String value = cookies.get(name);
    return value == null ? Optional.empty() : verify(value);
  }

  public Optional<String> verify(String value) {
    int dot = value.lastIndexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    String payload = value.substring(0, dot);
    byte[] expected = sign(payload);
    byte[] given;
    try {
      given = DECODER.decode(value.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!MessageDigest.isEqual(expected, given)) {
      return Optional.empty();
    }
    try {
      JsonNode session = Json.parse(DECODER.decode(payload));
      JsonNode id = session.get("session_id");
      return id != null && id.isString() ? Optional.of(id.stringValue()) : Optional.empty();
    } catch (JacksonException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  public String value(String sessionId) {
    var session = Json.object();
    session.put("session_id", sessionId);
    String payload = ENCODER.encodeToString(Json.writeBytes(session));
    return payload + "." + ENCODER.encodeToString(sign(payload));
  }

  public SetCookie setCookie(String sessionId) {
    return signed(value(sessionId));
  }

  /** The cookie with a value already signed by this server (the one a request carried, verified). */
  SetCookie signed(String signedValue) {
    return SetCookie.builder(name, signedValue).path("/").httpOnly(true).sameSite(SetCookie.SameSite.LAX).build();
  }

  public static String newSessionId() {
    return UUID.randomUUID().toString();
  }

  private byte[] sign(String payload) {
    Mac mac;
    try {
      mac = (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      mac = newMac();
    }
    return mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII));
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
