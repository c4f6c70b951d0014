import {get, call} from './api.js';
import {el, clear, json} from './dom.js';

let root;
let form;
let examples = [];

export function init(section) {
  root = section;
  form = {
    pack: el('select', {id: 'try-pack'}),
    example: el('select', {id: 'try-example'}),
    input: el('textarea', {id: 'try-input', rows: 12, spellcheck: 'false'}),
    state: el('textarea', {id: 'try-state', rows: 4, spellcheck: 'false', placeholder: 'state_before (stateful packs only)'}),
    draft: el('select', {id: 'try-draft'}),
    go: el('button', {id: 'try-go', class: 'primary'}, 'Decide'),
    out: el('div', {id: 'try-out', class: 'columns'}),
  };
  form.pack.addEventListener('change', () => loadExamples());
  form.example.addEventListener('change', () => pick(Number(form.example.value)));
  form.go.addEventListener('click', () => decide());
  root.append(el('h2', {}, 'Try a message'),
    el('p', {class: 'muted'}, 'Decide one message with the live rules and with a draft, side by side, and see why each rule did or did not decide. ',
      'Nothing is logged and nothing changes.'),
    el('div', {class: 'form'},
      el('label', {}, 'Pack ', form.pack), el('label', {}, 'Example from the golden history ', form.example),
      el('label', {}, 'Compare with draft ', form.draft)),
    el('label', {class: 'block'}, 'Message (JSON)', form.input),
    el('label', {class: 'block'}, 'State before (JSON, stateful packs)', form.state),
    form.go, form.out);
  for (const p of ['broker', 'signals', 'fsm', 'dispatch', 'handoff']) form.pack.append(el('option', {value: p}, p));
}

/** arg: {pack, input, state_before, draft} to open a given message (from an impact example). */
export async function show(arg) {
  await loadDrafts(arg && arg.draft);
  if (arg && arg.pack) {
    form.pack.value = arg.pack;
    await loadExamples();
    form.example.prepend(el('option', {value: -1}, '(the message from the impact)'));
    form.example.value = -1;
    form.input.value = json(arg.input);
    form.state.value = arg.state_before ? json(arg.state_before) : '';
    decide();
  } else if (!examples.length) {
    await loadExamples();
  }
}

async function loadDrafts(selected) {
  clear(form.draft).append(el('option', {value: ''}, '(live rules only)'));
  try {
    for (const d of await get('drafts')) form.draft.append(el('option', {value: d.id}, 'draft ' + d.id));
  } catch (e) { /* reading drafts may need a token; live-only still works */ }
  if (selected) form.draft.value = selected;
}

async function loadExamples() {
  clear(form.example);
  examples = await get('examples/' + encodeURIComponent(form.pack.value)).catch(() => []);
  examples.forEach((x, i) => form.example.append(el('option', {value: i}, x.label)));
  if (examples.length) pick(0);
}

function pick(i) {
  const x = examples[i];
  if (!x) return;
  form.input.value = json(x.input);
  form.state.value = x.state_before ? json(x.state_before) : '';
}

async function decide() {
  clear(form.out).append(el('p', {class: 'muted'}, 'Deciding…'));
  let body;
  try {
    body = {pack: form.pack.value, input: JSON.parse(form.input.value)};
    if (form.state.value.trim()) body.state_before = JSON.parse(form.state.value);
  } catch (e) {
    clear(form.out).append(el('p', {class: 'error'}, 'The message is not valid JSON: ' + e.message));
    return;
  }
  if (form.draft.value) body.draft = form.draft.value;
  try {
    const r = await call('POST', 'try', body);
    clear(form.out).append(column('Live rules', r.live), r.draft ? column('Draft ' + form.draft.value, r.draft, r.live) : '');
  } catch (e) {
    clear(form.out).append(el('p', {class: 'error'}, e.message),
      (e.details && e.details.errors || []).map(x => el('div', {class: 'error'}, x.file + ':' + x.line + ': ' + x.message)));
  }
}

const META = new Set(['decision_id', 'rules_revision', 'rule', 'reason', 'rules_fired', 'explain']);

function column(title, d, other) {
  const fields = Object.entries(d).filter(([k]) => !META.has(k));
  const changed = k => other && JSON.stringify(other[k]) !== JSON.stringify(d[k]);
  return el('div', {class: 'column decision'},
    el('h3', {}, title),
    el('p', {}, 'Decided by ', el('strong', {class: 'decided-by'}, d.rule || '(no rule)')),
    el('p', {class: 'reason'}, d.reason ? 'because ' + d.reason : ''),
    el('table', {class: 'fields'}, el('tbody', {}, fields.map(([k, v]) =>
      el('tr', {class: changed(k) ? 'changed' : ''}, el('th', {}, k), el('td', {}, JSON.stringify(v)))))),
    el('h4', {}, 'Why, and why not'),
    el('ol', {class: 'explain'}, (d.explain || []).map(x => el('li', {class: 'status-' + x.status},
      el('span', {class: 'badge'}, x.status), ' ', el('span', {class: 'rule-name'}, x.rule), ' ',
      el('span', {class: 'muted'}, x.file + ':' + x.line), el('div', {class: 'why'}, x.why)))));
}
