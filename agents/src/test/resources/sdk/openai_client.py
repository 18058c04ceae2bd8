"""Drives our model server and agent with the official OpenAI Python SDK and prints what its typed objects
hold, as one JSON line. Arguments: the model server's and the agent's base URLs. Run by OfficialSdkClientsTest."""
import json
import sys

import openai

model_url, agent_url = sys.argv[1:3]
model = openai.OpenAI(base_url=model_url + "/v1", api_key="unused", max_retries=0)
agent = openai.OpenAI(base_url=agent_url + "/v1", api_key="unused", max_retries=0)
tools = [{"type": "function", "name": "increment_counter", "strict": False,
          "parameters": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]


def summary(response):
    extra = lambda item: (item.model_extra or {}).get("generation_token_ids")
    return {
        "status": response.status,
        "types": [item.type for item in response.output],
        "text": response.output_text,
        "reasoning": ["".join(part.text for part in item.summary) for item in response.output if item.type == "reasoning"],
        "calls": [{"name": item.name, "arguments": item.arguments} for item in response.output
                  if item.type == "function_call"],
        "outputs": [item.output for item in response.output if item.type == "function_call_output"],
        "token_ids": [extra(item) for item in response.output if extra(item)],
        "output_tokens": response.usage.output_tokens,
    }


def streamed(client, **params):
    types = []
    text = ""
    with client.responses.stream(**params) as stream:
        for event in stream:
            types.append(event.type)
            if event.type == "response.output_text.delta":
                text += event.delta
        final = stream.get_final_response()
    return {**summary(final), "first": types[0], "last": types[-1], "deltas": text}


out = {}
out["model"] = summary(model.responses.create(model="m", input="hi"))
out["model_stream"] = streamed(model, model="m", input="hi")
out["model_tool"] = summary(model.responses.create(model="m", input="weather?", tools=tools))
out["model_tool_stream"] = streamed(model, model="m", input="weather?", tools=tools)
chat = model.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
out["chat"] = {"content": chat.choices[0].message.content, "finish": chat.choices[0].finish_reason}
content = ""
usage = None
for chunk in model.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True,
                                           stream_options={"include_usage": True}):
    if chunk.choices and chunk.choices[0].delta.content:
        content += chunk.choices[0].delta.content
    if chunk.usage:
        usage = chunk.usage.completion_tokens
out["chat_stream"] = {"content": content, "usage": usage}
out["models"] = [entry.id for entry in model.models.list().data]
try:
    model.responses.create(model="m", input="hi", temperature="hot")
except openai.APIStatusError as error:
    body = error.body if isinstance(error.body, dict) else {}
    out["error"] = {"status": error.status_code, "message": error.message, "param": body.get("param"),
                    "type": body.get("type")}
out["agent"] = summary(agent.responses.create(model="m", input="weather?", tools=tools))
out["agent_stream"] = streamed(agent, model="m", input="weather?", tools=tools)
print(json.dumps(out))
