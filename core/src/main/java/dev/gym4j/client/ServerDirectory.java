package dev.gym4j.client;

import java.net.URI;
import java.util.Optional;

/** Where each server instance can be reached, by instance name. */
public interface ServerDirectory {
  /** The base URL of an instance ({@code http://host:port}), if it is known. */
  Optional<URI> find(String instance);

  /** Called after a connection to an instance failed, so a directory can look its address up again. */
  default void invalidate(String instance) {}
}
