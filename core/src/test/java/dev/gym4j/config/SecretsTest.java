package dev.gym4j.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one redactor (issue 14, item 3): configured secrets, URL user info and header values never leave. */
class SecretsTest {
  private static final String CONFIG = """
      policy_api_key: sk-planted-env-yaml-1111
      policy_base_url: http://alice:pw-planted-userinfo-2222@127.0.0.1:9/v1
      abstention_token: "[IDK]"
      m:
        responses_api_models:
          openai_model:
            openai_base_url: ${policy_base_url}
            openai_api_key: ${policy_api_key}
            openai_model: gpt
            openai_default_headers: {X-Team: team-planted-header-3333, Authorization: Bearer planted-bearer-4444}
      """;

  @TempDir
  Path dir;

  private GlobalConfig load() {
    return TestConfigs.load(dir, CONFIG, "++judge_api_key=cmdline-planted-5555");
  }

  @Test
  void every_configured_secret_is_masked_in_text() {
    load();
    String echoed = "upstream said: key sk-planted-env-yaml-1111, url pw-planted-userinfo-2222, header "
        + "team-planted-header-3333, token planted-bearer-4444, judge cmdline-planted-5555";
    String redacted = Secrets.redact(echoed);
    assertThat(redacted).doesNotContain("1111", "2222", "3333", "4444", "5555").contains("upstream said: key ****");
  }

  @Test
  void url_user_info_and_bearer_tokens_are_masked_even_when_not_configured() {
    String text = "GET http://bob:hunter22@example.com/v1 failed; Authorization: Bearer abc.def-ghi; "
        + "{\"api-key\": \"zzzzzzzz\"} and https://example.com/path@not-userinfo";
    assertThat(Secrets.redact(text)).isEqualTo("GET http://****@example.com/v1 failed; Authorization: Bearer ****; "
        + "{\"api-key\": \"****\"} and https://example.com/path@not-userinfo");
  }

  @Test
  void short_values_are_placeholders_and_ordinary_text_is_untouched() {
    load();
    assertThat(Secrets.redact("the model answered [IDK] with EMPTY reasoning"))
        .isEqualTo("the model answered [IDK] with EMPTY reasoning");
  }

  @Test
  void redacting_twice_changes_nothing_more() {
    String once = Secrets.redact("http://u:secretpass@h/v1 Bearer tok-123456789");
    assertThat(Secrets.redact(once)).isEqualTo(once);
  }

  @Test
  void config_dumps_mask_header_values_and_url_user_info() {
    GlobalConfig config = load();
    String raw = Yaml.write(GlobalConfig.masked(config.raw()));
    String resolved = Yaml.write(GlobalConfig.masked(config.resolved()));
    for (String dump : new String[] {raw, resolved}) {
      assertThat(dump).doesNotContain("1111", "2222", "3333", "4444", "5555", "alice")
          .contains("http://****@127.0.0.1:9/v1");
    }
    assertThat(resolved).contains("X-Team: '****'", "Authorization: '****'", "openai_model: gpt");
  }
}
