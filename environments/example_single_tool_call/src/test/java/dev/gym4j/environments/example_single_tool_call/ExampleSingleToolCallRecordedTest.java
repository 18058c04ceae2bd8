package dev.gym4j.environments.example_single_tool_call;

import dev.gym4j.testkit.RecordedRolloutsTest;

class ExampleSingleToolCallRecordedTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "example_single_tool_call";
  }
}
