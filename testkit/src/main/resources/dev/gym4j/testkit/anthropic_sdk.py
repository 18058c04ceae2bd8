"""The Anthropic Python SDK as a client of a gym4j server.

Usage: python anthropic_sdk.py <base url> <scenario>, where the scenario is {"request": <a Messages request>,
"bad": <a request the server must refuse>} and, optionally, "errors": [{"call": "create" | "count_tokens",
"request": <a request the server must refuse>}]. Prints what the SDK's typed objects hold, field by field, as JSON.
"""
import json
import sys

import anthropic
from anthropic.types import Message, RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock

base_url, scenario_text = sys.argv[1:3]
scenario = json.loads(scenario_text)
client = anthropic.Anthropic(base_url=base_url, api_key="not-a-real-key", max_retries=0, timeout=60)


def read(message):
    assert isinstance(message, Message), type(message)
    content = []
    for block in message.content:
        out = {"type": block.type, "generation_token_ids": (block.model_extra or {}).get("generation_token_ids")}
        if isinstance(block, TextBlock):
            out["text"] = block.text
        elif isinstance(block, ThinkingBlock):
            out["thinking"] = block.thinking
            out["signature"] = block.signature
        elif isinstance(block, RedactedThinkingBlock):
            out["data"] = block.data
        elif isinstance(block, ToolUseBlock):
            out.update(id=block.id, name=block.name, input=block.input)
        else:
            raise AssertionError(f"unexpected block {block!r}")
        content.append(out)
    return {
        "id": message.id,
        "type": message.type,
        "role": message.role,
        "model": message.model,
        "stop_reason": message.stop_reason,
        "stop_sequence": message.stop_sequence,
        "usage": {"input_tokens": message.usage.input_tokens, "output_tokens": message.usage.output_tokens},
        "content": content,
    }


plain = client.messages.create(**scenario["request"])

events = {}
with client.messages.stream(**scenario["request"]) as stream:
    for event in stream:
        events[event.type] = events.get(event.type, 0) + 1
    streamed = stream.get_final_message()

def refused(call, request):
    try:
        call(**request)
    except anthropic.APIStatusError as e:
        body = e.body if isinstance(e.body, dict) else {}
        return {
            "class": type(e).__name__,
            "status": e.status_code,
            "type": body.get("error", {}).get("type"),
            "message": body.get("error", {}).get("message"),
        }
    return None


error = refused(client.messages.create, scenario["bad"])
errors = [refused(client.messages.count_tokens if each["call"] == "count_tokens" else client.messages.create,
                  each["request"]) for each in scenario.get("errors", [])]

print(json.dumps({"sdk": "python", "plain": read(plain), "streamed": read(streamed), "events": events,
                  "error": error, "errors": errors}))
