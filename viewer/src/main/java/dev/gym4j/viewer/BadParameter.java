package dev.gym4j.viewer;

/** A query parameter the viewer cannot use: answered 400 with a message naming the parameter. */
final class BadParameter extends RuntimeException {
  BadParameter(String name, String problem) {
    super("query parameter '" + name + "' " + problem);
  }
}
