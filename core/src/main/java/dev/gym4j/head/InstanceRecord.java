package dev.gym4j.head;

/**
 * A running server instance as the head server lists it at {@code GET /server_instances} (NeMo Gym's
 * field names).
 *
 * @param processName the instance name (NeMo Gym calls it the process name)
 * @param serverType the server kind's config key
 * @param name the implementation
 * @param startTime unix seconds
 */
public record InstanceRecord(String processName, String serverType, String name, String host, int port, String url,
    long pid, double startTime) {}
