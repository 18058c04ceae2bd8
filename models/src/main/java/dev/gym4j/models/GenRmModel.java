package dev.gym4j.models;

import dev.gym4j.server.Implementation;

/** {@code genrm_model}: NeMo Gym starts vLLM with a GenRM model on the machine's GPUs; gym4j says what to use instead. */
@Implementation("genrm_model")
public final class GenRmModel extends RefusingModelServer {
  public GenRmModel() {
    super("genrm_model starts vLLM with the GenRM model on this machine's GPUs, which gym4j does not do: serve the "
        + "model with `vllm serve` on a GPU machine and use vllm_model with its base_url (or openai_model for a "
        + "hosted GenRM endpoint)");
  }
}
