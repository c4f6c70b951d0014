import {get, trials as v1} from './api.js';
import {el, clear, json, when, term} from './dom.js';

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
    maxDivergence: el('input', {id: 'trial-max-divergence', type: 'number', min: 0, max: 100, step: 'any', placeholder: 'none'}),
    minDecisions: el('input', {id: 'trial-min-decisions', type: 'number', min: 1, step: 1, placeholder: '100'}),
    start: el('button', {id: 'trial-start', class: 'primary'}, 'Start the trial'),
    out: el('p', {id: 'trial-start-out', class: 'muted'}),
  };
  form.start.addEventListener('click', start);
  view = el('div', {id: 'trial-view'});
  root.append(el('h2', {}, 'Live trials'),
    el('p', {class: 'muted'}, 'Run a draft beside the live rules on real traffic. In shadow every client keeps the live answer and the ',
      'draft decides beside it; as a ', term('canary'), ' the draft answers the senders whose ', term('bucket'), ' is in its share. A stop limit ends the ',
      'trial by itself; promote goes through the same gate and record as an activation.'),
    el('div', {class: 'form'}, el('label', {}, 'Draft ', form.draft), el('label', {}, 'Mode ', form.mode),
      el('label', {}, 'Percent ', form.percent)),
    el('div', {class: 'form'}, el('label', {}, 'Stop when the draft disagrees on more than (%) ', form.maxDivergence),
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
    body.stop = {max_divergence_rate: Number(form.maxDivergence.value) / 100};
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

/**
 * Shows the trial. The parts that move (state, figures, arms, divergences, violations) are drawn
 * again at each poll; the operator's controls are drawn once per trial and state, so what a
 * person types or ticks there is never wiped by the figures coming in.
 */
function render(t) {
  if (view.dataset.trial !== t.id || view.dataset.state !== t.state) {
    view.dataset.trial = t.id;
    view.dataset.state = t.state;
    clear(view).append(el('h3', {}, 'Trial ' + t.id), el('div', {id: 'trial-moving'}), actions(t));
  }
  const arm = a => t.arms[a];
  const moving = clear(document.getElementById('trial-moving'));
  moving.append(
    el('p', {id: 'trial-state', 'data-state': t.state}, el('strong', {}, t.state), ' · ', t.mode + (t.mode === 'canary' ? ' at ' + t.percent + '%' : ''),
      ' · draft ' + t.draft + ' · started ' + when(t.started_at), t.stop_reason ? el('span', {class: 'error'}, ' · ' + t.stop_reason) : ''),
    el('p', {id: 'trial-words'}, inWords(t)),
    el('p', {id: 'trial-figures', class: 'muted'}, el('span', {class: 'comparisons'}, t.comparisons + ' comparisons'), ', ',
      el('span', {class: 'diverged'}, t.diverged + ' diverged'), ', agreement ',
      el('span', {class: 'agreement'}, t.agreement_rate === null || t.agreement_rate === undefined ? '–'
        : (100 * t.agreement_rate).toFixed(1) + '%'), ', ' + t.fallbacks + ' fallback(s) to the live answer, ' + t.shadow_dropped + ' dropped (queue full)'),
    el('table', {class: 'fields', id: 'trial-arms'}, el('thead', {}, el('tr', {}, ['rules', 'messages decided', 'answers sent',
      'errors', 'past deadline', 'typical time (median)', 'slowest 1 in 100'].map(h => el('th', {}, h)))),
    el('tbody', {}, ['live', 'candidate'].map(a => el('tr', {'data-arm': a}, el('th', {}, a === 'live' ? 'live rules' : 'the draft'),
      el('td', {}, arm(a).decisions), el('td', {class: 'answered'}, arm(a).answered), el('td', {}, arm(a).errors),
      el('td', {}, arm(a).deadline_exceeded), el('td', {}, millis(arm(a).latency_ms.p50)), el('td', {}, millis(arm(a).latency_ms.p99)))))),
    el('h4', {}, 'Where the draft answers differently'),
    t.divergences.length ? el('div', {id: 'trial-divergences'}, t.divergences.map(g => group(t, g)))
      : el('p', {class: 'muted'}, 'Nowhere so far.'),
    ...(t.invariant_violations.length ? [el('h4', {}, 'Rules of the pack the draft broke (', term('invariant', 'invariants'), ')'),
      el('div', {id: 'trial-violations'}, t.invariant_violations.map(v => violation(t, v)))] : []));
}

/** The figures as a person reads them. */
function inWords(t) {
  const c = t.comparisons;
  const pct = (n, of) => of ? ' (' + Math.round(100 * n / of) + '%)' : '';
  let words = c ? 'The draft disagrees with the live rules on ' + t.diverged + ' of ' + c + ' messages' + pct(t.diverged, c) + '.'
    : 'No message compared yet.';
  if (t.mode === 'canary') {
    const mine = t.arms.candidate.answered;
    const all = mine + t.arms.live.answered;
    words += ' The canary answers ' + mine + ' of ' + all + ' messages' + pct(mine, all) + ': senders are assigned whole, so ' +
      'the share of messages differs from ' + t.percent + '%.';
  } else {
    words += ' In shadow every client keeps the live answer: the draft answers no one.';
  }
  return words;
}

function millis(ms) {
  return ms === null || ms === undefined ? '–' : ms < 1 ? 'under 1 ms' : ms + ' ms';
}

function violation(t, v) {
  const x = v.example || {};
  return el('div', {class: 'violation', 'data-invariant': v.invariant},
    el('p', {}, 'The draft broke "', el('strong', {}, v.invariant), '" (' + v.pack + ') ' + v.count + ' time(s): ' + (x.message || '') + '. ',
      el('button', {class: 'small open-in-try', on: {click: () => app.show('try', {pack: v.pack, input: x.smallest_input || x.input,
        draft: t.draft})}}, 'Open in Try')),
    el('details', {}, el('summary', {}, 'the smallest message that breaks it'), el('pre', {}, json(x.smallest_input || x.input))));
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

/** A button that asks to be clicked again before it acts: promote and abort are not undone by a slip. */
function confirming(id, label, run) {
  const b = el('button', {id});
  let armed = null;
  const reset = () => { b.textContent = label; b.classList.remove('danger'); armed = null; };
  reset();
  b.addEventListener('click', async () => {
    if (!armed) {
      b.textContent = 'Click again to ' + label.toLowerCase();
      b.classList.add('danger');
      armed = setTimeout(reset, 8000);
      return;
    }
    clearTimeout(armed);
    reset();
    await run();
  });
  return b;
}

/** What the last action said: kept across a redraw of the controls (a stop or resume changes the state). */
let said = null;

function actions(t) {
  const out = el('p', {id: 'trial-action-out', class: said && said.trial === t.id ? said.cls : 'muted'},
    said && said.trial === t.id ? said.text : '');
  if (t.state !== 'running' && t.state !== 'stopped') return el('div', {id: 'trial-actions'}, out);
  const tell = (text, cls) => {
    said = {trial: t.id, text, cls};
    out.textContent = text;
    out.className = cls;
  };
  const note = el('input', {type: 'text', id: 'trial-note', size: 40, placeholder: 'why promote, or why abort (required to promote)'});
  const accept = el('input', {type: 'checkbox', id: 'trial-accept'});
  const mode = el('select', {id: 'trial-change-mode'}, el('option', {value: 'shadow'}, 'shadow'), el('option', {value: 'canary'}, 'canary'));
  mode.value = t.mode;
  const percent = el('input', {id: 'trial-change-percent', type: 'number', min: 0, max: 100, step: 'any', value: t.percent});
  // A refusal says why in full: the gate's reasons (file:line: message) follow its headline.
  const fail = e => tell('Refused (' + e.status + '): ' + e.message + ((e.details && e.details.errors || [])
    .map(x => ' · ' + (x.file ? x.file + (x.line ? ':' + x.line : '') + ': ' : '') + x.message).join('')), 'error');
  const change = el('button', {id: 'trial-change'}, 'Change');
  change.addEventListener('click', async () => {
    const body = {mode: mode.value};
    if (mode.value === 'canary') body.percent = Number(percent.value);
    try {
      const after = await v1('PATCH', '/' + encodeURIComponent(t.id), body);
      tell('Now ' + after.mode + (after.mode === 'canary' ? ' at ' + after.percent + '%' : '') + '.', 'ok');
      refresh();
    } catch (e) {
      fail(e);
    }
  });
  const act = (what, body) => async () => {
    try {
      await v1('POST', '/' + encodeURIComponent(t.id) + '/' + what, body());
      tell(what === 'promote' ? 'Promoted: the draft is live.' : 'Aborted: every message is decided by the live rules.', 'ok');
      app.refreshRevision();
      refresh();
    } catch (e) {
      fail(e);
    }
  };
  // Stop for now (figures kept; promote and abort stay open), or resume a stopped trial beside the same live rules.
  const pause = el('button', {id: t.state === 'running' ? 'trial-stop' : 'trial-resume'},
    t.state === 'running' ? 'Stop for now' : 'Resume');
  pause.addEventListener('click', async () => {
    const body = {state: t.state === 'running' ? 'stopped' : 'running'};
    if (note.value.trim()) body.reason = note.value.trim();
    try {
      const after = await v1('PATCH', '/' + encodeURIComponent(t.id), body);
      tell(after.state === 'running' ? 'Resumed: the draft is compared again; the figures go on from where they were.'
        : 'Stopped: every message is decided by the live rules; resume, promote or abort when you are ready.', 'ok');
      refresh();
    } catch (e) {
      fail(e);
    }
  });
  const canary = t.state === 'running' ? el('div', {class: 'form'}, el('label', {}, 'Run as ', mode),
    el('label', {}, 'share of senders (%) ', percent), change) : '';
  return el('div', {id: 'trial-actions'}, canary, el('div', {class: 'form'}, pause),
    el('div', {class: 'form'}, note, el('label', {}, accept, ' accept the golden history\'s changes (see the impact)'),
      confirming('trial-promote', 'Promote', act('promote', () => ({note: note.value, accept_golden_changes: accept.checked}))),
      confirming('trial-abort', 'Abort', act('abort', () => ({reason: note.value || 'aborted from the workbench'})))), out);
}
