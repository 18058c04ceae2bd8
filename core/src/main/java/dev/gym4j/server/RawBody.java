package dev.gym4j.server;

/** A response body that is not JSON (the Prometheus text format). */
public record RawBody(String contentType, byte[] bytes) {}
