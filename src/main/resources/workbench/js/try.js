import {get, call} from './api.js';
import {el, clear, json} from './dom.js';

let root;
let form;
let examples = [];
/** The rule names of each pack, for the "why not this rule" picker. */
let rulesByPack = {};
/** Decisions asked for: only the answer to the latest is shown. */
let asked = 0;

export function init(section) {
  root = section;
  form = {
    pack: el('select', {id: 'try-pack'}),
    example: el('select', {id: 'try-example'}),
    input: el('textarea', {id: 'try-input', rows: 12, spellcheck: 'false'}),
    state: el('textarea', {id: 'try-state', rows: 4, spellcheck: 'false', placeholder: 'state_before (stateful packs only)'}),
    draft: el('select', {id: 'try-draft'}),
    whyNot: el('select', {id: 'try-why-not'}),
    go: el('button', {id: 'try-go', class: 'primary'}, 'Decide'),
    origin: el('p', {id: 'try-origin', class: 'muted'}),
    out: el('div', {id: 'try-out'}),
  };
  form.pack.addEventListener('change', async () => {
    await loadExamples();
    fillWhyNot();
  });
  form.example.addEventListener('change', () => pick(Number(form.example.value)));
  form.go.addEventListener('click', () => decide());
  form.whyNot.addEventListener('change', () => decide());
  root.append(el('h2', {}, 'Try a message'),
    el('p', {class: 'muted'}, 'Decide one message with the live rules and with a draft, side by side, and see why each rule did or did not decide, ',
      'with the values its conditions read. Nothing is logged and nothing changes.'),
    el('div', {class: 'form'},
      el('label', {}, 'Pack ', form.pack), el('label', {}, 'Example from the golden history ', form.example),
      el('label', {}, 'Compare with draft ', form.draft)),
    form.origin,
    el('label', {class: 'block'}, 'Message (JSON)', form.input),
    el('label', {class: 'block'}, 'State before (JSON, stateful packs)', form.state),
    el('div', {class: 'form'}, form.go, el('label', {}, 'Why not this rule? ', form.whyNot)), form.out);
  for (const p of ['broker', 'signals', 'fsm', 'dispatch', 'handoff']) form.pack.append(el('option', {value: p}, p));
}

/**
 * arg: {pack, input, state_before, draft?, decision_id?, at?, rules_revision?} opens a given message
 * (an impact example, a logged decision) and decides it at once.
 */
export async function show(arg) {
  await Promise.all([loadDrafts(arg && arg.draft), loadRules()]);
  if (arg && arg.pack) {
    form.pack.value = arg.pack;
    await loadExamples();
    fillWhyNot();
    const label = arg.decision_id ? '(decision ' + arg.decision_id + ' from the log)' : '(the message from the impact)';
    form.example.prepend(el('option', {value: -1}, label));
    form.example.value = -1;
    form.input.value = json(arg.input);
    form.state.value = arg.state_before ? json(arg.state_before) : '';
    form.origin.textContent = arg.decision_id ? 'Decision ' + arg.decision_id + ', logged ' + new Date(arg.at).toLocaleString() +
      ' with rules ' + (arg.rules_revision || '').slice(0, 19) + '…: what happened, beside what the live rules' +
      (form.draft.value ? ' and the draft' : '') + ' answer today.' : '';
    logged = arg.decision_id ? {id: arg.decision_id, input: form.input.value} : null;
    decide();
  } else {
    form.origin.textContent = '';
    if (!examples.length) await loadExamples();
    fillWhyNot();
  }
}

async function loadDrafts(selected) {
  const keep = selected || form.draft.value;
  clear(form.draft).append(el('option', {value: ''}, '(live rules only)'));
  try {
    for (const d of await get('drafts')) {
      if (d.status === 'open' || d.status === 'out_of_date') form.draft.append(el('option', {value: d.id}, 'draft ' + d.id));
    }
  } catch (e) { /* reading drafts may need a token; live-only still works */ }
  form.draft.value = keep || '';
  if (form.draft.value !== (keep || '')) form.draft.value = '';
}

async function loadRules() {
  try {
    const r = await get('rules');
    rulesByPack = {};
    for (const p of r.packs) rulesByPack[p.name] = p.rules.map(x => x.name);
  } catch (e) { /* the picker stays empty; deciding still works */ }
}

function fillWhyNot() {
  const keep = form.whyNot.value;
  clear(form.whyNot).append(el('option', {value: ''}, '(choose a rule)'));
  for (const name of rulesByPack[form.pack.value] || []) form.whyNot.append(el('option', {value: name}, name));
  form.whyNot.value = keep;
  if (form.whyNot.value !== keep) form.whyNot.value = '';
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
  logged = null;
  form.input.value = json(x.input);
  form.state.value = x.state_before ? json(x.state_before) : '';
  form.origin.textContent = '';
}

/** The logged decision Try was opened on (its id and message as shown), or null. */
let logged = null;

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
  // A logged decision, its message untouched: asked by its id, so the answer holds what was recorded.
  const fromLog = logged && form.input.value === logged.input;
  if (fromLog) body = {decision_id: logged.id};
  if (form.draft.value) body.draft = form.draft.value;
  if (form.whyNot.value) body.why_not = form.whyNot.value;
  const seq = ++asked;
  try {
    const r = await call('POST', 'try', body);
    if (seq !== asked) return;
    const columns = el('div', {class: 'columns'});
    let verdict = null;
    if (r.recorded) {
      const n = r.differences.length;
      verdict = el('p', {id: 'try-recorded-verdict', class: n ? 'notice error' : 'notice ok'}, n
        ? 'Today\'s live rules answer differently from what happened: ' + r.differences.map(x => x.field).join(', ') +
          (n === 1 ? ' differs.' : ' differ.')
        : 'Today\'s live rules answer as was recorded.');
      columns.append(column('What happened (logged ' + new Date(r.recorded.at).toLocaleString() + ')', r.recorded.decision, null,
        'recorded'));
    }
    columns.append(column(r.recorded ? 'The live rules today' : 'Live rules', r.live, r.recorded ? r.recorded.decision : null, 'live'));
    if (r.draft) columns.append(column('Draft ' + form.draft.value, r.draft, r.live, 'draft'));
    if (r.draft_error) {
      // The live result always shows; a draft that does not compile says why beside it.
      columns.append(el('div', {class: 'column decision', id: 'try-draft-error'}, el('h3', {}, 'Draft ' + r.draft_error.draft),
        el('p', {class: 'error'}, r.draft_error.message + '.'),
        el('ul', {class: 'problems'}, r.draft_error.errors.map(x => el('li', {class: 'error'}, x.file + ':' + x.line + ': ' + x.message)))));
    }
    clear(form.out).append(verdict || '', columns);
  } catch (e) {
    if (seq !== asked) return;
    clear(form.out).append(el('p', {class: 'error'}, e.message),
      el('ul', {class: 'problems'}, (e.details && e.details.errors || []).map(x => el('li', {class: 'error'},
        x.file ? x.file + ':' + x.line + ': ' + x.message : (x.field ? x.field + ': ' : '') + x.message))));
  }
}

const META = new Set(['decision_id', 'rules_revision', 'rule', 'reason', 'rules_fired', 'explain', 'why_not']);

/** A decision no rule made, in words: the pack's default, named. */
function defaultWords(d) {
  const to = d.agent || d.model || d.action || d.next_state || d.next_agent || (d.primary_recipients || [])[0];
  return 'no rule matched' + (to ? ': the default, ' + to : '');
}

function column(title, d, other, side) {
  const fields = Object.entries(d).filter(([k]) => !META.has(k));
  const changed = k => other && JSON.stringify(other[k]) !== JSON.stringify(d[k]);
  return el('div', {class: 'column decision', 'data-side': side},
    el('h3', {}, title),
    el('p', {}, d.rule ? 'Decided by ' : '', el('strong', {class: 'decided-by'}, d.rule || defaultWords(d))),
    el('p', {class: 'reason'}, d.reason ? 'because ' + d.reason : ''),
    el('table', {class: 'fields'}, el('tbody', {}, fields.map(([k, v]) =>
      el('tr', {class: changed(k) ? 'changed' : ''}, el('th', {}, k), el('td', {}, JSON.stringify(v)))))),
    d.why_not ? whyNot(d.why_not) : '',
    el('h4', {}, 'Why, and why not'),
    el('ol', {class: 'explain'}, (d.explain || []).map(x => el('li', {class: 'status-' + x.status},
      el('span', {class: 'badge'}, x.status), ' ', el('span', {class: 'rule-name'}, x.rule), ' ',
      el('span', {class: 'muted'}, x.file + ':' + x.line), el('div', {class: 'why', title: x.why}, whyInWords(x)),
      x.constraints ? constraints(x.constraints) : ''))));
}

/** A rule's "why" as an analyst says it: the constraint that failed, in words, when it has them. */
function whyInWords(x) {
  const failed = x.failed && x.failed.words ? x.failed : (x.constraints || []).find(c => c.result === false && c.words);
  return failed && x.status === 'not-matched' ? 'did not match: ' + failed.words + (x.reason ? ' (it applies when ' + x.reason + ')' : '')
    : x.why;
}

/** The answer to "why not this rule": how it took part, and each of its constraints with the values read. */
function whyNot(w) {
  return el('div', {class: 'why-not'}, el('h4', {}, 'Why not "' + w.rule + '"'),
    el('p', {title: w.why}, w.status ? el('span', {class: 'badge'}, w.status) : '', ' ', whyInWords(w)),
    w.constraints ? constraints(w.constraints) : '');
}

/** Each constraint as an analyst says it, the raw form one click away (or the raw form alone, when it has no words). */
function constraints(list) {
  return el('ul', {class: 'constraints'}, list.map(c => el('li', {class: c.result === true ? 'held' : c.result === false ? 'failed' : 'unknown'},
    c.words ? [el('span', {class: 'words'}, c.words), ' ', el('details', {class: 'raw'}, el('summary', {}, 'as written'),
      el('code', {}, c.text || c.constraint))] : el('code', {}, c.text || c.constraint))));
}
