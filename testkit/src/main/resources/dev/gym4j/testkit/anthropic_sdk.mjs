// The Anthropic TypeScript SDK as a client of a gym4j server: usage `node anthropic_sdk.mjs <base url> <scenario>`,
// where the scenario is {"request": <a Messages request>, "bad": <a request the server must refuse>} and, optionally,
// "errors": [{"call": "create" | "count_tokens", "request": <a request the server must refuse>}]. Prints what the
// SDK's typed objects hold, field by field, as one JSON document.
import Anthropic from '@anthropic-ai/sdk';

const [baseURL, scenarioText] = process.argv.slice(2);
const scenario = JSON.parse(scenarioText);
const client = new Anthropic({ baseURL, apiKey: 'not-a-real-key', maxRetries: 0, timeout: 60_000 });

function read(message) {
  return {
    id: message.id,
    type: message.type,
    role: message.role,
    model: message.model,
    stop_reason: message.stop_reason,
    stop_sequence: message.stop_sequence,
    usage: { input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens },
    content: message.content.map((block) => {
      const out = { type: block.type, generation_token_ids: block.generation_token_ids ?? null };
      switch (block.type) {
        case 'text': out.text = block.text; break;
        case 'thinking': out.thinking = block.thinking; out.signature = block.signature; break;
        case 'redacted_thinking': out.data = block.data; break;
        case 'tool_use': out.id = block.id; out.name = block.name; out.input = block.input; break;
        default: throw new Error(`unexpected block type ${block.type}`);
      }
      return out;
    }),
  };
}

const plain = await client.messages.create(scenario.request);

const events = {};
const stream = client.messages.stream(scenario.request);
stream.on('streamEvent', (event) => { events[event.type] = (events[event.type] ?? 0) + 1; });
const streamed = await stream.finalMessage();

async function refused(call) {
  try {
    await call();
  } catch (e) {
    if (!(e instanceof Anthropic.APIError)) throw e;
    return { class: e.constructor.name, status: e.status, type: e.error?.error?.type ?? null,
      message: e.error?.error?.message ?? null };
  }
  return null;
}

const error = await refused(() => client.messages.create(scenario.bad));
const errors = [];
for (const { call, request } of scenario.errors ?? []) {
  errors.push(await refused(() => call === 'count_tokens' ? client.messages.countTokens(request)
    : client.messages.create(request)));
}

console.log(JSON.stringify({ sdk: 'typescript', plain: read(plain), streamed: read(streamed), events, error,
  errors }));
