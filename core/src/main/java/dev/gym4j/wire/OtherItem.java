package dev.gym4j.wire;

import tools.jackson.databind.node.ObjectNode;

/**
 * An item type gym4j passes through without modelling it: hosted-tool calls ({@code web_search_call},
 * {@code mcp_call}, …) and their outputs, or a type newer than this code.
 */
public record OtherItem(ObjectNode json) implements Item {}
