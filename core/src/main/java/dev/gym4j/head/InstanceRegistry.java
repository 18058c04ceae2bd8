package dev.gym4j.head;

import java.net.URI;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.gym4j.client.ServerDirectory;

/** The running instances a head server knows of: started in its JVM, or registered by {@code gym4j serve}. */
public final class InstanceRegistry implements ServerDirectory {
  private final Map<String, InstanceRecord> records = new ConcurrentHashMap<>();
  private final java.util.Set<String> local = ConcurrentHashMap.newKeySet();

  /** An instance running in this process. */
  public void register(InstanceRecord record) {
    local.add(record.processName());
    records.put(record.processName(), record);
  }

  /**
   * An instance another process announced; refused (false) when an instance of that name runs in this
   * process, so an announcement can only add the instances the deployment left to others.
   */
  public boolean announce(InstanceRecord record) {
    if (local.contains(record.processName())) {
      return false;
    }
    records.put(record.processName(), record);
    return true;
  }

  public Collection<InstanceRecord> all() {
    return records.values().stream()
        .sorted(java.util.Comparator.comparing(InstanceRecord::processName)).toList();
  }

  public Optional<InstanceRecord> get(String instance) {
    return Optional.ofNullable(records.get(instance));
  }

  @Override
  public Optional<URI> find(String instance) {
    return get(instance).map(record -> URI.create(record.url()));
  }
}
