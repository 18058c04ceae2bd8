package dev.gym4j.environments.example_multi_step;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.gym4j.json.Json;
import dev.gym4j.resources.Description;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Several tool calls in order: look up the value of each synonym relevant to the query, then report them
 * all in one {@code extract_synonym_values} call. The rollout is right when the last report equals
 * {@code expected_synonym_values}, in order. (NeMo Gym's example_multi_step, formerly multineedle.)
 */
@Implementation("example_multi_step")
public final class ExampleMultiStep extends ResourcesServer {

  public record SynonymQuery(@Description("The synonym to get the value for.") String synonym) {}

  public record SynonymValue(long synonymValue) {}

  public record SynonymValues(@Description("The values of the synonyms, in order.") List<Long> synonymValues) {}

  public record Success(boolean success) {}

  @Tool(description = "Get the synonym value for a synonym.")
  public SynonymValue getSynonymValue(SynonymQuery query) {
    return new SynonymValue(query.synonym().codePoints().asLongStream().sum());
  }

  @Tool(description = "Extract the synonym values you retrieved for the term that is relevant to the user query.")
  public Success extractSynonymValues(SynonymValues values) {
    return new Success(true);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    List<JsonNode> reported = lastReport(request.response().output());
    List<JsonNode> expected = new ArrayList<>();
    request.field("expected_synonym_values").forEach(expected::add);
    boolean exact = reported.equals(expected);
    Set<String> reportedSet = new HashSet<>();
    reported.forEach(value -> reportedSet.add(value.toString()));
    long overlap = expected.stream().map(JsonNode::toString).distinct().filter(reportedSet::contains).count();
    double setOverlap = expected.isEmpty() ? 0.0 : (double) overlap / expected.size();
    boolean minefield = reportedSet.contains(request.field("minefield_label_value").toString());
    return Verification.of(exact ? 1.0 : 0.0)
        .with("parsed_synonym_values", Json.toTree(reported))
        .with("accuracy", exact)
        .with("set_overlap", setOverlap)
        .with("original_term_minefield_hit", minefield)
        .with("order_instruction_following_failure", !exact && setOverlap == 1.0);
  }

  /** The values of the last extract_synonym_values call; empty when there is none or it does not parse. */
  private static List<JsonNode> lastReport(List<Item> output) {
    for (Item item : output.reversed()) {
      if (item instanceof FunctionCall call && "extract_synonym_values".equals(call.name())) {
        List<JsonNode> values = new ArrayList<>();
        try {
          Json.parse(call.arguments()).path("synonym_values").forEach(values::add);
        } catch (JacksonException e) {
          return List.of();
        }
        return values;
      }
    }
    return List.of();
  }
}
