package dev.gym4j.models;

import dev.gym4j.server.Implementation;

/** {@code local_vllm_model}: NeMo Gym starts vLLM on the machine's GPUs; gym4j says what to use instead. */
@Implementation("local_vllm_model")
public final class LocalVllmModel extends RefusingModelServer {
  public LocalVllmModel() {
    super("local_vllm_model starts vLLM on this machine's GPUs, which gym4j does not do: start `vllm serve <model>` "
        + "on a GPU machine and use vllm_model with its base_url (or local_vllm_model_proxy, or openai_model / "
        + "inference_provider for a hosted endpoint)");
  }
}
