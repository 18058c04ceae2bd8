package dev.gym4j.server;

import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;

/**
 * The server implementations on the classpath, found through {@link ServiceLoader} and keyed by kind and
 * {@link Implementation} name. Each server instance gets a new object.
 */
public final class Implementations {
  private final Map<String, Supplier<GymServer>> byKey;

  private Implementations(Map<String, Supplier<GymServer>> byKey) {
    this.byKey = byKey;
  }

  public static Implementations load() {
    return load(Thread.currentThread().getContextClassLoader());
  }

  public static Implementations load(ClassLoader loader) {
    Map<String, Supplier<GymServer>> found = new TreeMap<>();
    ServiceLoader.load(GymServer.class, loader).stream().forEach(provider -> {
      Class<? extends GymServer> type = provider.type();
      Implementation name = type.getAnnotation(Implementation.class);
      if (name == null || Modifier.isAbstract(type.getModifiers())) {
        throw new IllegalStateException(type.getName() + " is listed as a GymServer but has no @Implementation name");
      }
      ServerKind kind = kindOf(type);
      Supplier<GymServer> previous = found.put(key(kind, name.value()), provider::get);
      if (previous != null) {
        throw new IllegalStateException("two implementations named " + kind.key() + "/" + name.value());
      }
    });
    return new Implementations(found);
  }

  /** A new server object for a configured instance, or a config error naming what is available. */
  public GymServer create(ServerInstance instance) {
    Supplier<GymServer> supplier = byKey.get(key(instance.kind(), instance.implementation()));
    if (supplier == null) {
      String prefix = instance.kind().key() + "/";
      var available = byKey.keySet().stream().filter(key -> key.startsWith(prefix))
          .map(key -> key.substring(prefix.length())).toList();
      throw new ConfigException("no " + instance.kind().key() + " implementation named '" + instance.implementation()
          + "' (instance " + instance.name() + "); available: " + (available.isEmpty() ? "none" : available));
    }
    return supplier.get();
  }

  /** Every implementation as {@code kind/name}. */
  public java.util.Set<String> names() {
    return byKey.keySet();
  }

  private static ServerKind kindOf(Class<? extends GymServer> type) {
    try {
      return type.getConstructor().newInstance().kind();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type.getName() + " needs a public no-argument constructor", e);
    }
  }

  private static String key(ServerKind kind, String name) {
    return kind.key() + "/" + name;
  }
}
