"""TRL: GRPO training for real on CPU with rewards from a gym4j environment, and the environment_factory class.

A tiny randomly initialised Llama (built from a config: nothing downloaded) and a word-level tokenizer built
here answer prompts "Say a", "Say b", … with one token; string_match (extraction_mode full_response) gives 1
when that token is the asked word. TRL read: trl/trainer/grpo_trainer.py (`_calculate_rewards`,
`environment_factory`). NeMo Gym read: resources_servers/string_match (the verifier the reward comes from).
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")

from gym4j_client import Gym4j, VerificationFailed  # noqa: E402
from gym4j_client.trl import Gym4jReward, environment_reward, tool_environment, verify_rollout  # noqa: E402

WORDS = ["a", "b", "c", "d"]


def tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2, "Say": 3, **{w: 4 + i for i, w in enumerate(WORDS)}}
    raw = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    raw.decoder = decoders.WordPiece()
    built = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="<pad>", eos_token="<eos>",
                                                 unk_token="<unk>", padding_side="left")
    return built


def tiny_model(vocab_size: int):
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                      num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=32,
                                      pad_token_id=0, eos_token_id=1, bos_token_id=None)
    return transformers.LlamaForCausalLM(config)


def dataset(rows):
    return datasets.Dataset.from_list(rows)


def task(word, mode="full_response"):
    return {"prompt": f"Say {word}", "expected_answer": word, "extraction_mode": mode}


class Recording(Gym4jReward):
    """The reward function, with every (completion, reward) it gave kept for the assertions."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scored = []

    def __call__(self, prompts, completions, **columns):
        rewards = super().__call__(prompts, completions, **columns)
        self.scored += list(zip(prompts, completions, columns["expected_answer"], rewards))
        return rewards


def grpo(tmp_path, model, tok, reward, rows, steps):
    config = trl.GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=steps, per_device_train_batch_size=8,
                            num_generations=4, max_completion_length=1, learning_rate=0.05, logging_steps=1,
                            report_to="none", use_cpu=True, save_strategy="no", seed=0, temperature=1.0,
                            dataloader_num_workers=0, disable_tqdm=True)
    return trl.GRPOTrainer(model=model, reward_funcs=[reward], args=config, train_dataset=dataset(rows),
                           processing_class=tok)


def test_grpo_trains_a_tiny_model_on_gym4j_rewards_and_a_failed_verification_stops_it(deployment, tmp_path):
    gym = Gym4j(deployment.head_url, timeout=30)
    tok = tokenizer()
    model = tiny_model(len(tok))
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    reward = Recording(gym, "string_match")
    trainer = grpo(tmp_path, model, tok, reward, [task(w) for w in WORDS] * 4, steps=4)
    trainer.train()

    # every completion of every step got its reward from string_match, and it is the right one
    assert len(reward.scored) == 4 * 8
    for prompt, completion, expected, given in reward.scored:
        assert given == (1.0 if completion.strip() == expected else 0.0), (prompt, completion, given)
    assert {given for *_, given in reward.scored} == {0.0, 1.0}  # the groups had something to learn from
    changed = [name for name, p in model.named_parameters() if not torch.equal(p.detach(), before[name])]
    assert changed, "no parameter changed in 4 GRPO steps"
    assert all("reward" in entry for entry in trainer.state.log_history if "loss" in entry)

    # a row the verifier refuses (an extraction mode it does not have: 422) stops the step: never a reward of 0
    broken = grpo(tmp_path, model, tok, reward, [task(w, mode="regex") for w in WORDS] * 4, steps=1)
    scored = len(reward.scored)
    with pytest.raises(VerificationFailed) as failed:
        broken.train()
    assert failed.value.failure_class == "verify_error" and failed.value.status == 422
    assert "extraction_mode" in failed.value.message
    assert len(reward.scored) == scored


def test_the_environment_factory_class_runs_tools_in_a_session_and_verifies_the_rollout(deployment):
    gym = Gym4j(deployment.head_url)
    row = json.loads((ROOT / "environments/example_single_tool_call/data/example.jsonl").read_text().splitlines()[0])
    Weather = tool_environment(gym, "example_single_tool_call", row["responses_create_params"]["tools"])

    schema = transformers.utils.get_json_schema(Weather().get_weather)
    assert schema["function"]["name"] == "get_weather"
    assert schema["function"]["parameters"]["required"] == ["city"]

    environments = [Weather(), Weather()]
    for environment in environments:
        assert environment.reset(**row) is None
    output = environments[0].get_weather(city="Paris")
    assert "Paris" in output
    rewards = environment_reward(prompts=["p", "p"], completions=["It is cold.", [{"role": "assistant",
                                                                                  "content": "no tool used"}]],
                                 environments=environments)
    assert rewards == [1.0, 1.0]  # example_single_tool_call's verifier gives 1.0 to every rollout
    with pytest.raises(RuntimeError, match="reset"):
        Weather().get_weather(city="Paris")


def byte_tokenizer_with_a_tool_calling_template():
    """Byte-level (any text encodes), with Qwen3's chat template as TRL ships it, which TRL can parse tool calls of."""
    from pathlib import Path

    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    raw = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    built = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, padding_side="left")
    built.add_special_tokens({"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>", "additional_special_tokens": [
        "<|im_start|>", "<tool_call>", "</tool_call>", "<think>", "</think>", "<tool_response>", "</tool_response>"]})
    built.chat_template = (Path(trl.__file__).parent / "chat_templates" / "qwen3.jinja").read_text()
    return built


def test_grpo_with_the_environment_factory_scores_every_rollout_in_its_own_session(deployment, tmp_path):
    gym = Gym4j(deployment.head_url)
    row = json.loads((ROOT / "environments/example_single_tool_call/data/example.jsonl").read_text().splitlines()[0])
    Weather = tool_environment(gym, "example_single_tool_call", row["responses_create_params"]["tools"])
    seeded = []

    class CountingWeather(Weather):
        def reset(self, **task):
            seeded.append(task)
            return super().reset(**task)

    tok = byte_tokenizer_with_a_tool_calling_template()
    torch.manual_seed(0)
    model = transformers.Qwen2ForCausalLM(transformers.Qwen2Config(
        vocab_size=len(tok), hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=2048, pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id))
    config = trl.GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=1, per_device_train_batch_size=4,
                            num_generations=4, max_completion_length=8, report_to="none", use_cpu=True,
                            save_strategy="no", seed=0, disable_tqdm=True)
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[environment_reward], args=config,
                              train_dataset=dataset([{"prompt": [{"role": "user", "content": "weather in sf?"}]}] * 4),
                              processing_class=tok, environment_factory=CountingWeather)
    assert "get_weather" in [tool.__name__ for tool in trainer.tools]  # the class's tool, offered to the model
    trainer.train()

    assert len(seeded) == 4  # one session per rollout, seeded with its dataset row
    assert all(task["prompt"] == [{"role": "user", "content": "weather in sf?"}] for task in seeded)
    logged = trainer.state.log_history[0]
    # example_single_tool_call's verifier gives 1.0 to every rollout, through each rollout's session
    assert logged["rewards/environment_reward/mean"] == 1.0


def test_tool_names_that_are_not_plain_methods_are_refused(deployment):
    gym = Gym4j(deployment.head_url)
    for name in ["verify", "seed_session", "../admin", "_private", "reset"]:
        with pytest.raises(ValueError, match="cannot be an environment method"):
            tool_environment(gym, "example_single_tool_call", [{"type": "function", "name": name, "parameters": {}}])


def test_a_rollout_the_verifier_refuses_is_a_verification_failure(deployment):
    gym = Gym4j(deployment.head_url)
    Env = tool_environment(gym, "string_match", [])
    environment = Env()
    environment.reset(prompt="Say a", expected_answer="a", extraction_mode="full_response")
    assert verify_rollout(environment, "a")["reward"] == 1.0
    environment.reset(prompt="Say a", extraction_mode="full_response")
    with pytest.raises(VerificationFailed, match="422"):
        verify_rollout(environment, "a")
