// gym4j view: the page. Rollout text is the model's and hostile: it reaches the DOM only as text nodes, or as
// Markdown that DOMPurify has sanitized down to a few formatting tags; math is typeset by KaTeX into DOM nodes.
'use strict';

const state = { files: [], charts: [], lastRows: {}, route: null };

// ---- DOM helpers: strings become text nodes, never markup
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'href') node.setAttribute('href', safeHref(value));
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// links the page makes point inside the page or at this server's API, nowhere else
function safeHref(value) {
  return /^(#|\/api\/)/.test(value) ? value : '#';
}

function route(view, params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') query.set(k, v);
  }
  const text = query.toString();
  return '#/' + view + (text ? '?' + text : '');
}

function parseRoute() {
  const hash = location.hash || '#/overview';
  const [path, query] = hash.slice(2).split('?');
  return { view: path || 'overview', params: Object.fromEntries(new URLSearchParams(query || '')) };
}

async function api(path, params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') query.set(k, v);
  }
  const response = await fetch('/api/' + path + '?' + query.toString());
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || ('HTTP ' + response.status));
  return body;
}

function fmt(value, digits = 3) {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

function main() { return document.getElementById('main'); }

function clearCharts() {
  state.charts.forEach(chart => chart.destroy());
  state.charts = [];
}

function chart(id, title, config) {
  const canvas = el('canvas', { id });
  const box = el('div', { class: 'chart' }, el('h3', { text: title }), canvas);
  config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false,
    plugins: { legend: { display: false } } }, config.options || {});
  // the chart is made once the box is in the page, so it can size itself
  setTimeout(() => state.charts.push(new Chart(canvas, config)), 0);
  return box;
}

function fileId(params) {
  const id = Number(params.file ?? document.getElementById('file-select').value ?? 0);
  return Number.isInteger(id) && id >= 0 && id < state.files.length ? id : 0;
}

// ---- Overview
async function showOverview(params) {
  const file = fileId(params);
  const data = await api('overview', { file });
  const root = el('div', { id: 'overview' });
  const metrics = data.metrics[0] ? data.metrics[0].agent_metrics : {};
  root.append(el('h2', { text: 'Overview · ' + data.file.name }),
    el('div', { class: 'cards' },
      card('rollouts', data.file.rows), card('tasks', data.num_tasks), card('failures', data.file.failures),
      card('mean reward', fmt(metrics['mean/reward'])),
      card('mean output tokens', fmt(metrics['mean/output_tokens'], 0))));
  root.append(metricsTable(data.metrics));
  if (data.recorded_metrics) {
    root.append(el('details', {}, el('summary', { text: 'recorded aggregate metrics (the _aggregate_metrics.json beside the file)' }),
      el('pre', { text: JSON.stringify(data.recorded_metrics, null, 2) })));
  }
  const tasks = data.reward_by_task;
  const charts = el('div', { class: 'charts' },
    chart('chart-reward', 'Reward histogram', barConfig(data.reward_histogram.labels, data.reward_histogram.counts, 'rollouts')),
    chart('chart-passk', 'pass@k (%)', passConfig(data.pass_at_k)),
    chart('chart-tasks', 'Mean reward by task (lowest first' + (tasks.length < data.num_tasks ? '; the ' + tasks.length / 2 + ' lowest and highest of ' + data.num_tasks : '') + '; click a bar for its rollouts)', Object.assign(
      barConfig(tasks.map(t => t.task), tasks.map(t => t.mean), 'mean reward'), {
        options: { onClick: (event, items) => {
          if (items.length) location.hash = route('table', { file, task: tasks[items[0].index].task });
        } } })),
    chart('chart-failures', 'Failures by class', barConfig(Object.keys(data.failures_by_class),
      Object.values(data.failures_by_class), 'failures')),
    chart('chart-tokens', 'Output tokens per rollout', barConfig(data.output_tokens.labels, data.output_tokens.counts, 'rollouts')),
    chart('chart-turns', 'Model turns per rollout', barConfig(data.turns.labels, data.turns.counts, 'rollouts')));
  root.append(charts);
  if (!data.pass_at_k.some(series => series.points.length)) {
    root.append(el('p', { class: 'muted', text: 'pass@k needs rewards of 0 or 1 (as NeMo Gym computes it).' }));
  }
  return root;
}

function card(label, value) {
  return el('div', { class: 'card' }, el('div', { class: 'muted', text: label }), el('div', { class: 'v', text: String(value) }));
}

function barConfig(labels, values, label) {
  return { type: 'bar', data: { labels, datasets: [{ label, data: values, backgroundColor: '#54aeff' }] } };
}

function passConfig(series) {
  const ks = [...new Set(series.flatMap(s => s.points.map(p => p.k)))].sort((a, b) => a - b);
  return { type: 'line', data: { labels: ks.map(k => 'k=' + k), datasets: series.map(s => ({
    label: s.agent || 'agent', data: s.points.map(p => p.value), borderColor: '#0969da', tension: 0.2 })) },
    options: { plugins: { legend: { display: series.length > 1 } }, scales: { y: { min: 0, max: 100 } } } };
}

function metricsTable(entries) {
  const box = el('div', { id: 'metrics' });
  for (const entry of entries) {
    const name = entry.agent_ref && entry.agent_ref.name ? entry.agent_ref.name : 'rollouts';
    const key = entry.key_metrics || {};
    box.append(el('h3', { text: 'Agent ' + name }),
      el('table', { class: 'kv', id: 'metrics-table' }, Object.entries(key).map(([k, v]) =>
        el('tr', {}, el('td', { text: k }), el('td', { class: 'num', text: fmt(v) })))),
      el('details', {}, el('summary', { text: 'all agent metrics' }), el('table', { class: 'kv' },
        Object.entries(entry.agent_metrics).filter(([k]) => k !== 'per_sample_aggregate').map(([k, v]) =>
          el('tr', {}, el('td', { text: k }), el('td', { class: 'num', text: fmt(v) }))))));
  }
  return box;
}

// ---- Table
const COLUMNS = [['row', 'row'], ['task', 'task'], ['rollout', 'rollout'], ['agent', 'agent'], ['reward', 'reward'],
  ['failure', 'failure'], [null, 'tools'], ['input_tokens', 'in tok'], ['output_tokens', 'out tok'], ['turns', 'turns'],
  [null, 'prompt']];
const FILTERS = ['min', 'max', 'task', 'failure', 'tool', 'q'];

async function showTable(params) {
  const file = fileId(params);
  const grouped = params.group === '1';
  const overview = await api('overview', { file });
  const root = el('div', { id: 'table-view' });
  root.append(el('h2', { text: (grouped ? 'GRPO groups · ' : 'Rollouts · ') + overview.file.name }),
    filterBar(file, params, overview));
  const query = Object.assign({ file, limit: 50 }, params);
  delete query.group;
  if (grouped) {
    const data = await api('groups', query);
    root.append(el('p', { id: 'total', text: data.total + ' groups; ' + data.zero_variance_groups
      + ' with zero reward variance (no GRPO signal), marked' }), groupsTable(file, params, data), pager(params, data));
  } else {
    const data = await api('rows', query);
    root.append(el('p', { id: 'total', text: data.total + ' rollouts match' }), rowsTable(file, params, data),
      pager(params, data));
  }
  return root;
}

function filterBar(file, params, overview) {
  const input = (name, type, placeholder) => el('input', { id: 'filter-' + name, name, type, placeholder,
    step: type === 'number' ? 'any' : undefined, value: params[name] || '' });
  const failure = el('select', { id: 'filter-failure' }, el('option', { value: '', text: '(all)' }),
    el('option', { value: 'none', text: 'no failure' }), el('option', { value: 'any', text: 'any failure' }),
    Object.keys(overview.failures_by_class).map(c => el('option', { value: c, text: c })));
  failure.value = params.failure || '';
  const tool = el('select', { id: 'filter-tool' }, el('option', { value: '', text: '(any)' }),
    Object.keys(overview.tools).map(t => el('option', { value: t, text: t })));
  tool.value = params.tool || '';
  const group = el('input', { type: 'checkbox', id: 'filter-group', checked: params.group === '1' ? 'checked' : undefined });
  const form = el('form', { class: 'filters', id: 'filters' },
    el('label', {}, 'reward ≥', input('min', 'number')), el('label', {}, 'reward ≤', input('max', 'number')),
    el('label', {}, 'task', input('task', 'text', '#12')), el('label', {}, 'failure class', failure),
    el('label', {}, 'tool used', tool), el('label', {}, 'text in the rollout', input('q', 'search', 'search…')),
    el('label', {}, 'group by task', group), el('button', { type: 'submit', id: 'apply', text: 'Apply' }));
  form.addEventListener('submit', event => {
    event.preventDefault();
    const next = { file, sort: params.sort, dir: params.dir, group: group.checked ? '1' : undefined };
    for (const name of FILTERS) next[name] = document.getElementById('filter-' + name).value;
    location.hash = route('table', next);
  });
  return form;
}

function sortHeader(params, key, label) {
  const sorted = params.sort === key;
  return el('th', { class: sorted ? 'sorted-' + (params.dir || 'asc') : undefined, 'data-sort': key, text: label,
    onclick: key ? () => {
      location.hash = route('table', Object.assign({}, params, { sort: key, offset: 0,
        dir: sorted && (params.dir || 'asc') === 'asc' ? 'desc' : 'asc' }));
    } : undefined });
}

function rowsTable(file, params, data) {
  return el('table', { id: 'rows-table' },
    el('tr', {}, COLUMNS.map(([key, label]) => sortHeader(params, key, label))),
    data.rows.map(r => el('tr', { class: 'clickable', 'data-row': r.row,
      onclick: () => { location.hash = route('rollout', { file, row: r.row }); } },
      el('td', { class: 'num', text: r.row }), el('td', { text: r.task }), el('td', { class: 'num', text: r.rollout }),
      el('td', { text: r.agent }), el('td', { class: 'num reward', text: fmt(r.reward) }),
      el('td', {}, r.failure ? el('span', { class: 'badge fail', text: r.failure }) : ''),
      el('td', {}, r.tools.map(t => el('span', { class: 'badge', text: t }))),
      el('td', { class: 'num', text: r.input_tokens < 0 ? '—' : r.input_tokens }),
      el('td', { class: 'num', text: r.output_tokens < 0 ? '—' : r.output_tokens }),
      el('td', { class: 'num', text: r.turns }), el('td', { class: 'prompt', text: r.prompt, title: r.prompt }))));
}

function groupsTable(file, params, data) {
  const header = [['task', 'task'], ['n', 'n'], ['mean', 'mean'], ['std', 'std'], [null, 'rewards (click one)'],
    [null, 'prompt']];
  return el('table', { id: 'groups-table' },
    el('tr', {}, header.map(([key, label]) => sortHeader(params, key, label))),
    data.groups.map(g => el('tr', { class: g.zero_variance ? 'zero-var' : undefined },
      el('td', {}, g.task, g.zero_variance ? el('span', { class: 'badge zv', text: 'zero variance' }) : ''),
      el('td', { class: 'num', text: g.n }), el('td', { class: 'num', text: fmt(g.mean) }),
      el('td', { class: 'num', text: fmt(g.std) }),
      el('td', {}, g.rollouts.map(r => el('a', { class: 'chip', href: route('rollout', { file, row: r.row }),
        text: fmt(r.reward, 2) }))),
      el('td', { class: 'prompt', text: g.prompt, title: g.prompt }))));
}

function pager(params, data) {
  const limit = 50;
  const offset = data.offset;
  const shown = (data.rows || data.groups).length;
  return el('div', { class: 'pager' },
    el('button', { id: 'prev', text: '‹ previous', disabled: offset === 0 ? 'disabled' : undefined,
      onclick: () => { location.hash = route('table', Object.assign({}, params, { offset: Math.max(0, offset - limit) })); } }),
    el('span', { text: data.total === 0 ? 'none' : (offset + 1) + '–' + (offset + shown) + ' of ' + data.total }),
    el('button', { id: 'next', text: 'next ›', disabled: offset + shown >= data.total ? 'disabled' : undefined,
      onclick: () => { location.hash = route('table', Object.assign({}, params, { offset: offset + limit })); } }));
}

// ---- Rollout page
async function showRollout(params) {
  const file = fileId(params);
  const row = Number(params.row || 0);
  const data = await api('rollout', { file, row });
  const root = el('div', { id: 'rollout' });
  root.append(el('h2', { text: 'Rollout ' + row + ' · ' + state.files[file].name }),
    el('p', {}, el('a', { href: route('table', { file }), text: '‹ table' }), ' · ',
      el('a', { href: route('rollout', { file, row: Math.max(0, row - 1) }), text: 'previous' }), ' · ',
      el('a', { href: route('rollout', { file, row: row + 1 }), text: 'next' })));
  root.append(rolloutBody(data, file, row));
  return root;
}

function rolloutBody(data, file, row) {
  const box = el('div', { class: 'rollout-body' });
  box.append(verifyTable(data));
  const raw = el('pre', { id: 'raw', hidden: 'hidden', text: JSON.stringify(data, null, 2) });
  box.append(el('p', {}, el('button', { id: 'raw-toggle', text: 'Raw JSON', onclick: () => { raw.hidden = !raw.hidden; } }),
    ' ', el('a', { href: '/api/rollout?file=' + file + '&row=' + row, text: 'open the raw line' })), raw);
  box.append(el('h3', { text: 'Conversation' }), conversation(data.responses_create_params || {}, data.response || {}));
  const judges = Object.entries(data).filter(([k, v]) => Array.isArray(v) && v.some(isExchange));
  for (const [name, exchanges] of judges) {
    box.append(el('h3', { text: name.replace(/_/g, ' ') }));
    exchanges.filter(isExchange).forEach((exchange, i) => box.append(el('details', { class: 'judge' },
      el('summary', { text: 'exchange ' + (i + 1) }), conversation(exchange.responses_create_params, exchange.response || {}))));
  }
  return box;
}

function isExchange(value) {
  return value && typeof value === 'object' && value.responses_create_params && value.response;
}

const BULKY = new Set(['responses_create_params', 'response']);

function verifyTable(data) {
  const usage = (data.response && data.response.usage) || {};
  const rows = [];
  for (const [key, value] of Object.entries(data)) {
    if (BULKY.has(key) || (Array.isArray(value) && value.some(isExchange))) continue;
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    rows.push(el('tr', {}, el('td', { text: key }), el('td', {}, el('pre', { text: shown }))));
  }
  for (const key of ['input_tokens', 'output_tokens', 'total_tokens']) {
    if (usage[key] !== undefined) rows.push(el('tr', {}, el('td', { text: 'usage.' + key }), el('td', { text: usage[key] })));
  }
  return el('div', {}, el('h3', { text: 'Verify result' }),
    el('p', { class: 'reward-line' }, 'reward ', el('strong', { id: 'reward', text: fmt(data.reward) })),
    el('table', { class: 'kv', id: 'verify' }, rows));
}

function conversation(params, response) {
  const box = el('div', { class: 'conversation' });
  if (params.instructions) box.append(message('system', params.instructions, false));
  if (Array.isArray(params.tools) && params.tools.length) {
    box.append(el('details', { class: 'tools' }, el('summary', { text: params.tools.length + ' tools offered: '
      + params.tools.map(t => t.name || (t.function && t.function.name) || t.type).join(', ') }),
      el('pre', { text: JSON.stringify(params.tools, null, 2) })));
  }
  const input = typeof params.input === 'string' ? [{ role: 'user', content: params.input }] : (params.input || []);
  input.forEach(item => box.append(item_(item, false)));
  let turn = 0;
  let inTurn = false;
  for (const item of response.output || []) {
    const toolOutput = item.type === 'function_call_output';
    if (!toolOutput && !inTurn) {
      turn++;
      box.append(el('div', { class: 'turn-head', text: 'model turn ' + turn + turnTokens(response.output, item) }));
    }
    inTurn = !toolOutput;
    box.append(item_(item, true));
  }
  return box;
}

// tokens of one turn, when the model server kept token ids (gym4j and NeMo RL rollouts do)
function turnTokens(output, first) {
  const start = output.indexOf(first);
  let generated = 0;
  let prompt = 0;
  for (let i = start; i < output.length && output[i].type !== 'function_call_output'; i++) {
    generated += (output[i].generation_token_ids || []).length;
    prompt = Math.max(prompt, (output[i].prompt_token_ids || []).length);
  }
  return generated ? ' · ' + prompt + ' prompt tokens, ' + generated + ' generated' : '';
}

function item_(item, fromModel) {
  switch (item.type) {
    case 'function_call':
      return el('div', { class: 'msg tool-call' }, el('div', { class: 'role', text: 'tool call · ' + item.name }),
        el('pre', { text: prettyJson(item.arguments) }));
    case 'function_call_output':
      return el('div', { class: 'msg tool-output' }, el('div', { class: 'role', text: 'tool output' }),
        el('pre', { text: typeof item.output === 'string' ? item.output : JSON.stringify(item.output, null, 2) }));
    case 'reasoning': {
      const parts = [...(item.summary || []), ...(item.content || [])].map(p => p.text || '').filter(Boolean);
      return el('details', { class: 'msg reasoning' }, el('summary', { text: 'reasoning' + (parts.length ? '' : ' (not shown by the model server)') }),
        el('pre', { text: parts.join('\n\n') }));
    }
    default: {
      const role = item.role || (fromModel ? 'assistant' : 'user');
      return message(role, contentText(item.content), role === 'assistant');
    }
  }
}

function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content.map(part => part.text !== undefined ? part.text : (part.refusal || '[' + part.type + ']')).join('\n');
}

function prettyJson(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return String(text); }
}

function message(role, text, markdown) {
  const body = markdown ? renderMarkdown(text) : el('pre', { text });
  return el('div', { class: 'msg ' + role.replace(/[^a-z]/g, '') }, el('div', { class: 'role', text: role }), body);
}

// Markdown: the model's own HTML is shown as text (marked's html tokens are escaped), what marked makes goes
// through DOMPurify (formatting tags only) all the same, and math is typeset by KaTeX into DOM nodes
const MARKDOWN_TAGS = ['p', 'br', 'hr', 'em', 'strong', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'];
const MATH = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|\$([^\s$](?:[^$\n]*?[^\s$])?)\$/g;
const PLACEHOLDER = /\u24dc(\d+)\u24dc/g;
let markedReady = false;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function renderMarkdown(text) {
  if (!markedReady) {
    marked.use({ renderer: { html: token => escapeHtml(token.text !== undefined ? token.text : token.raw) } });
    markedReady = true;
  }
  const maths = [];
  const source = String(text).replace(MATH, (match, a, b, c, d) => {
    maths.push({ tex: a ?? b ?? c ?? d, display: a !== undefined || b !== undefined });
    return '\u24dc' + (maths.length - 1) + '\u24dc';
  });
  const html = marked.parse(source, { async: false, gfm: true });
  const fragment = DOMPurify.sanitize(html, { ALLOWED_TAGS: MARKDOWN_TAGS, ALLOWED_ATTR: ['href', 'title', 'align',
    'start'], ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i, RETURN_DOM_FRAGMENT: true });
  const box = el('div', { class: 'md' });
  box.appendChild(fragment);
  box.querySelectorAll('a').forEach(a => a.setAttribute('rel', 'noopener noreferrer'));
  typesetMath(box, maths);
  return box;
}

// replaces each math placeholder in the text nodes with the formula, typeset
function typesetMath(box, maths) {
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const parts = node.nodeValue.split(PLACEHOLDER);
    if (parts.length === 1) continue;
    const replacement = document.createDocumentFragment();
    parts.forEach((part, i) => {
      if (i % 2 === 0) {
        if (part) replacement.appendChild(document.createTextNode(part));
        return;
      }
      const math = maths[Number(part)];
      const span = el('span', { class: 'math' });
      if (math) {
        katex.render(math.tex, span, { displayMode: math.display, throwOnError: false, strict: 'ignore', trust: false,
          maxSize: 20, maxExpand: 200 });
      }
      replacement.appendChild(span);
    });
    node.parentNode.replaceChild(replacement, node);
  }
}

// ---- Compare
async function showCompare(params) {
  if (state.files.length < 2) {
    return el('p', { class: 'muted', text: 'Compare needs two files: gym4j view a.jsonl b.jsonl' });
  }
  const a = Number(params.a ?? 0);
  const b = Number(params.b ?? 1);
  const data = await api('compare', { a, b });
  const root = el('div', { id: 'compare' });
  const pick = (id, value) => {
    const select = el('select', { id }, state.files.map(f => el('option', { value: f.id, text: f.name })));
    select.value = String(value);
    select.addEventListener('change', () => { location.hash = route('compare', {
      a: document.getElementById('compare-a').value, b: document.getElementById('compare-b').value }); });
    return select;
  };
  root.append(el('h2', { text: 'Compare' }), el('p', {}, 'A ', pick('compare-a', a), '  B ', pick('compare-b', b)));
  if (params.task) {
    root.append(await sideBySide(data, a, b, params));
  }
  root.append(el('table', { id: 'compare-table' },
    el('tr', {}, ['task', 'A mean (n)', 'B mean (n)', 'Δ (B − A)', 'prompt'].map(h => el('th', { text: h }))),
    data.tasks.map(t => el('tr', { class: 'clickable', 'data-task': t.task,
      onclick: () => { location.hash = route('compare', { a, b, task: t.task }); } },
      el('td', { text: t.task }),
      el('td', { class: 'num', text: t.a ? fmt(t.a.mean) + ' (' + t.a.n + ')' : '—' }),
      el('td', { class: 'num', text: t.b ? fmt(t.b.mean) + ' (' + t.b.n + ')' : '—' }),
      el('td', { class: 'num ' + (t.delta > 0 ? 'pos' : t.delta < 0 ? 'neg' : ''), text: t.delta === undefined ? '—'
        : (t.delta > 0 ? '+' : '') + fmt(t.delta) }),
      el('td', { class: 'prompt', text: t.prompt, title: t.prompt })))));
  return root;
}

async function sideBySide(data, a, b, params) {
  const task = data.tasks.find(t => t.task === params.task);
  if (!task) return el('p', { class: 'error', text: 'no task ' + params.task + ' in these files' });
  const column = async (id, file, side, which) => {
    const box = el('div', { id });
    if (!side) return el('div', { id }, el('p', { class: 'muted', text: 'this task is not in ' + state.files[file].name }));
    const index = Math.min(Number(params[which] || 0), side.rows.length - 1);
    box.append(el('h3', { text: state.files[file].name }), el('p', {}, 'repeat: ', side.rows.map((row, i) =>
      el('a', { class: 'chip', href: route('compare', Object.assign({}, params, { [which]: i })), text: String(i) }))));
    box.append(rolloutBody(await api('rollout', { file, row: side.rows[index] }), file, side.rows[index]));
    return box;
  };
  return el('div', { class: 'split', id: 'side-by-side' }, await column('side-a', a, task.a, 'ra'),
    await column('side-b', b, task.b, 'rb'));
}

// ---- shell: file list, navigation, follow
async function refreshFiles() {
  const data = await api('files');
  state.files = data.files;
  const select = document.getElementById('file-select');
  if (select.options.length !== state.files.length) {
    select.replaceChildren(...state.files.map(f => el('option', { value: f.id, text: f.name })));
  }
  const total = state.files.reduce((n, f) => n + f.rows, 0);
  const indexing = state.files.some(f => !f.indexed);
  document.getElementById('progress').textContent = total + ' rollouts' + (indexing ? ' (indexing…)' : '');
  return data;
}

async function render() {
  const { view, params } = parseRoute();
  state.route = location.hash;
  document.querySelectorAll('header nav a').forEach(a => a.classList.toggle('active', a.id === 'nav-' + view));
  if (params.file !== undefined) document.getElementById('file-select').value = params.file;
  const views = { overview: showOverview, table: showTable, rollout: showRollout, compare: showCompare };
  try {
    const node = await (views[view] || showOverview)(params);
    clearCharts();
    main().replaceChildren(node);
  } catch (error) {
    clearCharts();
    main().replaceChildren(el('p', { class: 'error', id: 'error', text: error.message }));
  }
}

async function follow() {
  if (!document.getElementById('follow').checked) return;
  try {
    const before = state.files.map(f => f.rows + f.failures).join(',');
    await refreshFiles();
    const after = state.files.map(f => f.rows + f.failures).join(',');
    const { view } = parseRoute();
    // not while someone is editing the filters: a re-render would drop what they typed
    const typing = document.activeElement && document.activeElement.closest && document.activeElement.closest('#filters');
    if (before !== after && !typing && (view === 'overview' || view === 'table')) await render();
  } catch (error) {
    document.getElementById('progress').textContent = 'server unreachable';
  }
}

async function start() {
  await refreshFiles();
  document.getElementById('file-select').addEventListener('change', event => {
    const { view } = parseRoute();
    location.hash = route(view === 'table' ? 'table' : 'overview', { file: event.target.value });
  });
  window.addEventListener('hashchange', render);
  setInterval(follow, 2000);
  await render();
}

start();
