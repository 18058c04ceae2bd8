package dev.gym4j.models;

import java.net.URI;
import java.util.List;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import dev.gym4j.wire.Item;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The token bundle of one model call for on-policy RL: the prompt's token ids, the sampled token ids and
 * their log-probs. Found, in order, (A) on the message itself, as a training backend may put it, (B) in
 * vLLM's {@code prompt_token_ids} and {@code choices[0].token_ids}, or (C) in the {@code token_id:N}
 * log-prob tokens, with the prompt ids from {@code /tokenize}. A partial or inconsistent bundle is the
 * backend's failure: training on it would be silently wrong.
 */
final class TokenInfo {
  private static final String TOKEN_PREFIX = "token_id:";

  private TokenInfo() {}

  /** Moves the bundle onto {@code choices[0].message} of a chat answer, in place. */
  static void attach(ObjectNode chat, URI url, java.util.function.Supplier<ArrayNode> tokenizePrompt) {
    ObjectNode choice = (ObjectNode) chat.path("choices").get(0);
    ObjectNode message = (ObjectNode) choice.get("message");
    JsonNode promptIds = chat.get(Item.PROMPT_TOKEN_IDS);
    JsonNode choiceIds = choice.get("token_ids");
    boolean responseIds = present(promptIds) || present(choiceIds);
    if (responseIds && !(present(promptIds) && present(choiceIds))) {
      throw broken(url, "gave only one of prompt_token_ids and choices[0].token_ids");
    }
    if (message.has(Item.GENERATION_TOKEN_IDS)) {
      checkBundle(message, url);
      if (responseIds && (!promptIds.equals(message.get(Item.PROMPT_TOKEN_IDS))
          || !choiceIds.equals(message.get(Item.GENERATION_TOKEN_IDS)))) {
        throw broken(url, "gave token ids on the message that differ from those on the response");
      }
    } else {
      JsonNode content = choice.path("logprobs").get("content");
      if (content == null || !content.isArray()) {
        throw broken(url, "gave no logprobs.content, which training mode needs");
      }
      ArrayNode generation = Json.array();
      ArrayNode logProbs = Json.array();
      for (JsonNode entry : content) {
        generation.add(tokenId(entry.path("token").asString(""), url));
        JsonNode logProb = entry.get("logprob");
        if (logProb == null || !logProb.isNumber()) {
          throw broken(url, "gave a log-prob that is not a number: " + logProb);
        }
        logProbs.add(logProb);
      }
      if (responseIds && !choiceIds.equals(generation)) {
        throw broken(url, "gave choices[0].token_ids that differ from the ids in its log-probs");
      }
      message.set(Item.PROMPT_TOKEN_IDS, responseIds ? promptIds : tokenizePrompt.get());
      message.set(Item.GENERATION_TOKEN_IDS, generation);
      message.set(Item.GENERATION_LOG_PROBS, logProbs);
      choice.remove("logprobs");
    }
    chat.remove(Item.PROMPT_TOKEN_IDS);
    choice.remove("token_ids");
  }

  private static void checkBundle(ObjectNode message, URI url) {
    for (String field : List.of(Item.PROMPT_TOKEN_IDS, Item.GENERATION_TOKEN_IDS, Item.GENERATION_LOG_PROBS)) {
      if (!present(message.get(field))) {
        throw broken(url, "gave a token bundle without " + field);
      }
    }
    if (message.get(Item.GENERATION_TOKEN_IDS).size() != message.get(Item.GENERATION_LOG_PROBS).size()) {
      throw broken(url, "gave generation_log_probs of a different length than generation_token_ids");
    }
  }

  private static int tokenId(String token, URI url) {
    if (!token.startsWith(TOKEN_PREFIX)) {
      throw broken(url, "gave a log-prob token '" + token + "' without the token_id: form (is "
          + "return_tokens_as_token_ids supported?)");
    }
    try {
      return Integer.parseInt(token.substring(TOKEN_PREFIX.length()));
    } catch (NumberFormatException e) {
      throw broken(url, "gave a malformed token id '" + token + "'");
    }
  }

  private static boolean present(JsonNode node) {
    return node != null && node.isArray();
  }

  private static UpstreamException broken(URI url, String what) {
    return new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + Upstream.shown(url) + " " + what, 200, null);
  }
}
