package dev.gym4j.head;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import dev.gym4j.config.ConfigException;

/**
 * The per-deployment secret that {@code gym4j serve} shows the head server to register an instance
 * ({@code Authorization: Bearer <secret>} on {@code POST /server_instances}). {@code gym4j run} draws one
 * (256 random bits) unless {@value #ENVIRONMENT_VARIABLE} gives it. It is never printed or logged: people
 * and logs see only its {@link #fingerprint()}, and {@link #toString()} shows nothing else.
 */
public final class HeadSecret {
  /** Where both {@code gym4j run} and {@code gym4j serve} look for a secret given by the operator. */
  public static final String ENVIRONMENT_VARIABLE = "GYM4J_HEAD_SECRET";
  /** Shorter secrets could be guessed; a drawn one has 43 characters. */
  static final int MIN_LENGTH = 32;

  private final String value;
  private final byte[] digest;

  private HeadSecret(String value) {
    this.value = value;
    this.digest = sha256(value);
  }

  /** A fresh secret of 256 random bits. */
  public static HeadSecret generate() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return new HeadSecret(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }

  /** A secret given by the operator (environment variable or file); where names the source for errors. */
  public static HeadSecret of(String value, String where) {
    String secret = value == null ? "" : value.strip();
    if (secret.length() < MIN_LENGTH || !secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new ConfigException("the head server secret from " + where + " must be at least " + MIN_LENGTH
          + " printable ASCII characters without spaces");
    }
    return new HeadSecret(secret);
  }

  /** A secret from a file that holds it (surrounding white space is ignored). */
  public static HeadSecret read(Path file) {
    try {
      return of(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new ConfigException("cannot read the head server secret from " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes the secret to a file only its owner may read (0600, where the file system has POSIX
   * permissions), replacing what was there.
   */
  public void writeTo(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path temporary = Files.createTempFile(parent, ".head-secret", ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory's own permissions apply
      }
      Files.writeString(temporary, value + "\n");
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** The value to send; only the client that registers an instance needs it. */
  public String value() {
    return value;
  }

  /** Whether a presented value is this secret; in constant time, so timing tells nothing about it. */
  public boolean matches(String presented) {
    return presented != null && MessageDigest.isEqual(digest, sha256(presented));
  }

  /** Eight hex digits of the secret's SHA-256: enough to tell two secrets apart, nothing to guess it from. */
  public String fingerprint() {
    return HexFormat.of().formatHex(digest, 0, 4);
  }

  @Override
  public String toString() {
    return "HeadSecret[sha256 " + fingerprint() + "…]";
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
