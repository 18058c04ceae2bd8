"""A scripted OpenAI-compatible model server that answers like vLLM's in training mode.

It serves `POST /v1/chat/completions` with what vLLM gives when asked for `logprobs` with
`return_tokens_as_token_ids` and `return_token_ids`: `prompt_token_ids` on the response, `token_ids` on the
choice and `token_id:N` log-prob tokens. Its tokenizer is byte-level (ids are UTF-8 bytes) and its chat
template renders each message as `<role>` and its text (an assistant's tool call as the text it generated),
then `<assistant>`, so each turn's prompt extends the previous turn's prompt and generation, as with a real
chat template. Its answers are scripted from the last user message:

- "Say X" -> "\\boxed{X}"; anything else -> "\\boxed{nothing}";
- a request offering a `get_weather` tool and holding no tool result yet -> a call of get_weather for "sf";
  with a tool result -> a text answer quoting it;
- a message containing FAIL_MODEL -> HTTP 500, as a vLLM whose engine died.

`delay` seconds pass before each answer (to keep rollouts in flight); `calls` counts the requests and
`in_flight` the ones not yet answered.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeVLLM:
    def __init__(self, delay: float = 0.0):
        self.delay = delay
        self.calls = 0
        self.in_flight = 0
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass

            def do_GET(self):
                if self.path == "/v1/models":
                    return self._send(200, {"object": "list", "data": [{"id": "fake-policy", "object": "model"}]})
                self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                with owner._lock:
                    owner.calls += 1
                    owner.in_flight += 1
                try:
                    if owner.delay:
                        time.sleep(owner.delay)
                    status, answer = owner.answer(body)
                    self._send(status, answer)
                finally:
                    with owner._lock:
                        owner.in_flight -= 1

            def _send(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="fake-vllm")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> "FakeVLLM":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @staticmethod
    def _text(content) -> str:
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(part.get("text", "") for part in content if isinstance(part, dict))
        return ""

    @staticmethod
    def tool_call_text(name: str, arguments: str) -> str:
        return f"<tool_call>{name}{arguments}</tool_call>"

    def render(self, messages) -> str:
        parts = []
        for m in messages:
            text = self._text(m.get("content"))
            for call in m.get("tool_calls") or []:
                text += self.tool_call_text(call["function"]["name"], call["function"]["arguments"])
            parts.append(f"<{m.get('role')}>{text}")
        return "".join(parts) + "<assistant>"

    def answer(self, body: dict):
        messages = body.get("messages", [])
        prompt = self.render(messages)
        last_user = next((self._text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")
        if "FAIL_MODEL" in prompt:
            return 500, {"error": {"message": "engine dead", "type": "InternalServerError", "code": 500}}
        tool_names = [t.get("function", {}).get("name") for t in body.get("tools") or []]
        tool_results = [m for m in messages if m.get("role") == "tool"]
        message = {"role": "assistant", "content": None}
        if "get_weather" in tool_names and not tool_results:
            arguments = json.dumps({"city": "sf"})
            message["tool_calls"] = [{"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
                                      "function": {"name": "get_weather", "arguments": arguments}}]
            generated = self.tool_call_text("get_weather", arguments)
            finish = "tool_calls"
        else:
            if tool_results:
                generated = "It is " + self._text(tool_results[-1].get("content"))
            elif last_user.startswith("Say "):
                generated = "\\boxed{" + last_user[4:].strip() + "}"
            else:
                generated = "\\boxed{nothing}"
            message["content"] = generated
            finish = "stop"
        generation_ids = list(generated.encode())
        prompt_ids = list(prompt.encode())
        choice = {"index": 0, "message": message, "finish_reason": finish,
                  "logprobs": {"content": [{"token": f"token_id:{t}", "logprob": -0.5, "bytes": [t], "top_logprobs": []}
                                           for t in generation_ids]}}
        answer = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
                  "model": body.get("model", "fake"), "choices": [choice],
                  "usage": {"prompt_tokens": len(prompt_ids), "completion_tokens": len(generation_ids),
                            "total_tokens": len(prompt_ids) + len(generation_ids)}}
        if body.get("return_token_ids"):
            answer["prompt_token_ids"] = prompt_ids
            choice["token_ids"] = generation_ids
        return 200, answer
