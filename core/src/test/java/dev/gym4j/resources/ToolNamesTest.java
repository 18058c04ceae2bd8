package dev.gym4j.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Issue 14, items 1-2: an environment cannot declare a tool on one of its own routes, or with a name that is a path. */
class ToolNamesTest {
  record Nothing() {}

  static final class OnVerify {
    @Tool(name = "verify")
    public String call(Nothing nothing) {
      return "";
    }
  }

  static final class WithSlash {
    @Tool(name = "a/b")
    public String call(Nothing nothing) {
      return "";
    }
  }

  static final class Plain {
    @Tool
    public String getWeather(Nothing nothing) {
      return "";
    }
  }

  @Test
  void a_tool_named_like_a_route_or_a_path_fails_at_start_up() {
    assertThatThrownBy(() -> ToolMethod.of(OnVerify.class)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'verify'");
    assertThatThrownBy(() -> ToolMethod.of(WithSlash.class)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'a/b'");
    assertThat(ToolMethod.of(Plain.class)).extracting(ToolMethod::name).containsExactly("get_weather");
  }
}
