import {get, trials as v1} from './api.js';
import {el, clear, json, when} from './dom.js';

// Live trials: a draft started beside the live rules in shadow or as a canary, its figures as the
// server counts them (polled while the tab is shown), the divergences grouped by the rules that
// decided with examples that open in Try beside the draft, and promote / abort. The trial's own
// endpoints (/v1/trials) are the operator's: they take the same admin token as the workbench.

const POLL_MS = 1000;

let root;
let app;
let form;
let view;
let timer = null;
/** The trial shown, and the request that asked for it: an older answer never replaces a newer one. */
let shownId = null;
let asked = 0;

export function init(section, a) {
  root = section;
  app = a;
  form = {
    draft: el('select', {id: 'trial-draft'}),
    mode: el('select', {id: 'trial-mode'}, el('option', {value: 'shadow'}, 'shadow (clients keep the live answer)'),
      el('option', {value: 'canary'}, 'canary (a share of senders get the draft)')),
    percent: el('input', {id: 'trial-percent', type: 'number', min: 0, max: 100, step: 'any', value: 100}),
    maxDivergence: el('input', {id: 'trial-max-divergence', type: 'number', min: 0, max: 1, step: 'any', placeholder: 'none'}),
    minDecisions: el('input', {id: 'trial-min-decisions', type: 'number', min: 1, step: 1, placeholder: '100'}),
    start: el('button', {id: 'trial-start', class: 'primary'}, 'Start the trial'),
    out: el('p', {id: 'trial-start-out', class: 'muted'}),
  };
  form.start.addEventListener('click', start);
  view = el('div', {id: 'trial-view'});
  root.append(el('h2', {}, 'Live trials'),
    el('p', {class: 'muted'}, 'Run a draft beside the live rules on real traffic. In shadow every client keeps the live answer and the ',
      'draft decides beside it; as a canary the draft answers the senders whose bucket is in its share. A stop limit ends the ',
      'trial by itself; promote goes through the same gate and record as an activation.'),
    el('div', {class: 'form'}, el('label', {}, 'Draft ', form.draft), el('label', {}, 'Mode ', form.mode),
      el('label', {}, 'Percent ', form.percent)),
    el('div', {class: 'form'}, el('label', {}, 'Stop when the divergence rate passes ', form.maxDivergence),
      el('label', {}, 'once this many comparisons were made ', form.minDecisions), form.start),
    form.out, view);
}

export async function show(arg) {
  await loadDrafts();
  try {
    const list = await v1('GET', '');
    const pick = arg && arg.trial ? arg.trial : (list.find(t => t.state === 'running') || list[0] || {}).id;
    follow(pick || null);
  } catch (e) {
    clear(view).append(el('p', {class: 'error'}, e.status === 401 ? 'Enter the admin token to see trials.' : e.message));
  }
}

async function loadDrafts() {
  const keep = form.draft.value;
  clear(form.draft);
  try {
    for (const d of await get('drafts')) {
      if (d.status === 'open') form.draft.append(el('option', {value: d.id}, 'draft ' + d.id));
    }
  } catch (e) { /* drafts need the token: the start button says so */ }
  form.draft.value = keep;
  if (!form.draft.value && form.draft.options.length) form.draft.selectedIndex = 0;
}

async function start() {
  const body = {draft: form.draft.value, mode: form.mode.value};
  if (body.mode === 'canary') body.percent = Number(form.percent.value);
  if (form.maxDivergence.value !== '') {
    body.stop = {max_divergence_rate: Number(form.maxDivergence.value)};
    if (form.minDecisions.value !== '') body.stop.min_decisions = Number(form.minDecisions.value);
  }
  form.start.disabled = true;
  form.out.textContent = 'Compiling the draft as a candidate…';
  form.out.className = 'muted';
  try {
    const t = await v1('POST', '', body);
    form.out.textContent = 'Trial ' + t.id + ' started in ' + t.mode + '.';
    follow(t.id);
  } catch (e) {
    form.out.textContent = 'Not started (' + e.status + '): ' + e.message;
    form.out.className = 'error';
  } finally {
    form.start.disabled = false;
  }
}

/** Shows one trial and polls it while it runs and the tab is shown. */
function follow(id) {
  shownId = id;
  if (timer) clearTimeout(timer);
  timer = null;
  if (!id) {
    clear(view).append(el('p', {class: 'muted'}, 'No trial yet.'));
    return;
  }
  refresh();
}

async function refresh() {
  const id = shownId;
  const seq = ++asked;
  let t;
  try {
    t = await v1('GET', '/' + encodeURIComponent(id));
  } catch (e) {
    if (seq === asked) clear(view).append(el('p', {class: 'error'}, e.message));
    return;
  }
  if (seq !== asked || id !== shownId) return;
  render(t);
  if (t.state === 'running' && !root.hidden) timer = setTimeout(refresh, POLL_MS);
}

function render(t) {
  const arm = a => t.arms[a];
  clear(view).append(
    el('h3', {}, 'Trial ' + t.id),
    el('p', {id: 'trial-state', 'data-state': t.state}, el('strong', {}, t.state), ' · ', t.mode + (t.mode === 'canary' ? ' at ' + t.percent + '%' : ''),
      ' · draft ' + t.draft + ' · started ' + when(t.started_at), t.stop_reason ? el('span', {class: 'error'}, ' · ' + t.stop_reason) : ''),
    el('p', {id: 'trial-figures'}, el('span', {class: 'comparisons'}, t.comparisons + ' comparisons'), ', ',
      el('span', {class: 'diverged'}, t.diverged + ' diverged'), ', agreement ',
      el('span', {class: 'agreement'}, t.agreement_rate === null || t.agreement_rate === undefined ? '–'
        : (100 * t.agreement_rate).toFixed(1) + '%'), ', ' + t.fallbacks + ' fallback(s) to the live answer, ' + t.shadow_dropped + ' dropped (queue full)'),
    el('table', {class: 'fields', id: 'trial-arms'}, el('thead', {}, el('tr', {}, ['arm', 'decisions', 'answered', 'errors',
      'past deadline', 'p50 ms', 'p99 ms'].map(h => el('th', {}, h)))),
    el('tbody', {}, ['live', 'candidate'].map(a => el('tr', {'data-arm': a}, el('th', {}, a), el('td', {}, arm(a).decisions),
      el('td', {class: 'answered'}, arm(a).answered), el('td', {}, arm(a).errors), el('td', {}, arm(a).deadline_exceeded),
      el('td', {}, arm(a).latency_ms.p50), el('td', {}, arm(a).latency_ms.p99))))),
    actions(t),
    el('h4', {}, 'Divergences'),
    t.divergences.length ? el('div', {id: 'trial-divergences'}, t.divergences.map(g => group(t, g)))
      : el('p', {class: 'muted'}, 'None so far.'),
    t.invariant_violations.length ? el('h4', {}, 'Invariants broken on the candidate') : '',
    t.invariant_violations.map(v => el('div', {class: 'violation'}, el('p', {}, el('strong', {}, v.invariant), ' (' + v.pack + '), ' +
      v.count + ' time(s): ' + v.example.message), el('details', {}, el('summary', {}, 'smallest failing input'),
      el('pre', {}, json(v.example.smallest_input))))));
}

function group(t, g) {
  return el('div', {class: 'divergence', 'data-count': g.count},
    el('p', {}, el('strong', {class: 'count'}, g.count), ' in ' + g.pack + ': live ', el('span', {class: 'rule-name'}, g.live_rule),
      ' → draft ', el('span', {class: 'rule-name'}, g.candidate_rule)),
    el('ul', {}, g.examples.map(x => el('li', {},
      Object.entries(x.diff).map(([k, d]) => k + ': ' + JSON.stringify(d.live) + ' → ' + JSON.stringify(d.candidate)).join('; ') + ' ',
      el('button', {class: 'small open-in-try', on: {click: () => app.show('try', {pack: x.pack || g.pack, input: x.input,
        state_before: x.state_before, draft: t.draft, decision_id: x.decision_id, at: x.at,
        rules_revision: x.live && x.live.rules_revision})}}, 'Open in Try')))));
}

function actions(t) {
  if (t.state !== 'running' && t.state !== 'stopped') return '';
  const out = el('span', {id: 'trial-action-out', class: 'muted'});
  const note = el('input', {type: 'text', id: 'trial-note', placeholder: 'why promote (required)'});
  const accept = el('input', {type: 'checkbox', id: 'trial-accept'});
  const act = (what, body) => async () => {
    try {
      await v1('POST', '/' + encodeURIComponent(t.id) + '/' + what, body());
      app.refreshRevision();
      refresh();
    } catch (e) {
      out.textContent = 'Refused (' + e.status + '): ' + e.message;
      out.className = 'error';
    }
  };
  return el('div', {class: 'form'}, note, el('label', {}, accept, ' accept golden-history changes'),
    el('button', {id: 'trial-promote', class: 'primary', on: {click: act('promote', () => ({note: note.value,
      accept_golden_changes: accept.checked}))}}, 'Promote'),
    el('button', {id: 'trial-abort', on: {click: act('abort', () => ({reason: 'aborted from the workbench'}))}}, 'Abort'), out);
}
