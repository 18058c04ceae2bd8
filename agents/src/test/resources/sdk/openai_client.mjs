// Drives our model server and agent with the official OpenAI Node SDK and prints what its typed objects hold,
// as one JSON line. Arguments: the model server's and the agent's base URLs. Run by OfficialSdkClientsTest.
import OpenAI from 'openai';

const [modelUrl, agentUrl] = process.argv.slice(2);
const model = new OpenAI({ baseURL: `${modelUrl}/v1`, apiKey: 'unused', maxRetries: 0 });
const agent = new OpenAI({ baseURL: `${agentUrl}/v1`, apiKey: 'unused', maxRetries: 0 });
const tools = [{ type: 'function', name: 'increment_counter', strict: false,
  parameters: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } }];

function summary(response) {
  return {
    status: response.status,
    types: response.output.map((item) => item.type),
    // output_text is a convenience only some of the SDK's paths fill: the parts are read instead
    text: response.output.filter((item) => item.type === 'message')
      .flatMap((item) => item.content.filter((part) => part.type === 'output_text').map((part) => part.text)).join(''),
    reasoning: response.output.filter((item) => item.type === 'reasoning')
      .map((item) => item.summary.map((part) => part.text).join('')),
    calls: response.output.filter((item) => item.type === 'function_call')
      .map((item) => ({ name: item.name, arguments: item.arguments })),
    outputs: response.output.filter((item) => item.type === 'function_call_output').map((item) => item.output),
    token_ids: response.output.filter((item) => item.generation_token_ids).map((item) => item.generation_token_ids),
    output_tokens: response.usage.output_tokens,
  };
}

async function streamed(client, params) {
  const stream = client.responses.stream(params);
  const types = [];
  let text = '';
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta;
  }
  return { ...summary(await stream.finalResponse()), first: types[0], last: types.at(-1), deltas: text };
}

const out = {};
out.model = summary(await model.responses.create({ model: 'm', input: 'hi' }));
out.model_stream = await streamed(model, { model: 'm', input: 'hi' });
out.model_tool = summary(await model.responses.create({ model: 'm', input: 'weather?', tools }));
out.model_tool_stream = await streamed(model, { model: 'm', input: 'weather?', tools });
const chat = await model.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
out.chat = { content: chat.choices[0].message.content, finish: chat.choices[0].finish_reason };
const chunks = await model.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }],
  stream: true, stream_options: { include_usage: true } });
let content = '';
let usage = null;
for await (const chunk of chunks) {
  if (chunk.choices.length > 0 && chunk.choices[0].delta.content) content += chunk.choices[0].delta.content;
  if (chunk.usage) usage = chunk.usage.completion_tokens;
}
out.chat_stream = { content, usage };
out.models = (await model.models.list()).data.map((entry) => entry.id);
try {
  await model.responses.create({ model: 'm', input: 'hi', temperature: 'hot' });
} catch (error) {
  out.error = { status: error.status, message: error.message, param: error.param, type: error.type };
}
out.agent = summary(await agent.responses.create({ model: 'm', input: 'weather?', tools }));
out.agent_stream = await streamed(agent, { model: 'm', input: 'weather?', tools });
console.log(JSON.stringify(out));
