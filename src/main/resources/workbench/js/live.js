import {get, stream} from './api.js';
import {el, clear, when} from './dom.js';

// Live decisions: the newest decisions from the decision log (searchable by decision_id, pack, rule
// or any text), and, while "Watch" is on, each new one as it is made. Every row shows who or what
// the decision sent the message to, and opens in "Try a message" with its explanation.

let root;
let app;
let stop = null;
let ui;
let searches = 0;
const MAX = 200;

export function init(section, a) {
  root = section;
  app = a;
  ui = {
    pack: el('select', {id: 'live-pack'}, el('option', {value: ''}, 'all packs'),
      ['broker', 'signals', 'fsm', 'dispatch', 'handoff'].map(p => el('option', {value: p}, p))),
    rule: el('input', {id: 'live-rule', type: 'text', placeholder: 'part of a rule name'}),
    text: el('input', {id: 'live-text', type: 'text', placeholder: 'any text in the decision'}),
    id: el('input', {id: 'live-id', type: 'text', placeholder: 'decision_id, e.g. 01J…', size: 30}),
    search: el('button', {id: 'live-search', class: 'primary'}, 'Search the log'),
    go: el('button', {id: 'live-go'}, 'Watch'),
    status: el('span', {class: 'muted', id: 'live-status'}, ''),
    rows: el('tbody', {id: 'live-list'}),
  };
  ui.search.addEventListener('click', () => search());
  ui.id.addEventListener('keydown', ev => { if (ev.key === 'Enter') search(); });
  ui.go.addEventListener('click', () => watch());
  root.append(el('h2', {}, 'Live decisions'),
    el('p', {class: 'muted'}, 'The newest decisions in the decision log, and new ones as they are made while you watch. ',
      'Click a decision to open it in "Try a message" with its explanation.'),
    el('div', {class: 'form'}, el('label', {}, 'Decision id ', ui.id), el('label', {}, 'Pack ', ui.pack),
      el('label', {}, 'Rule ', ui.rule), el('label', {}, 'Text ', ui.text), ui.search, ui.go, ui.status),
    el('table', {class: 'live'}, el('thead', {}, el('tr', {}, ['When', 'Pack', 'Decided by', 'Sent to', 'Decision id']
      .map(h => el('th', {}, h)))), ui.rows));
}

export async function show() {
  if (!ui.rows.children.length && !stop) await search();
}

function filters() {
  const q = new URLSearchParams();
  if (ui.pack.value) q.set('pack', ui.pack.value);
  if (ui.rule.value.trim()) q.set('rule', ui.rule.value.trim());
  if (ui.text.value.trim()) q.set('q', ui.text.value.trim());
  return q;
}

async function search() {
  const q = filters();
  if (ui.id.value.trim()) q.set('decision_id', ui.id.value.trim());
  q.set('limit', '50');
  ui.status.textContent = 'searching the decision log…';
  const seq = ++searches;
  try {
    const r = await get('decisions?' + q);
    if (seq !== searches) return; // a newer search was asked for meanwhile: its answer is the one to show
    clear(ui.rows);
    r.decisions.forEach(d => ui.rows.append(row(d)));
    ui.status.textContent = r.decisions.length ? r.decisions.length + ' decision(s), newest first' +
      (r.whole_log ? '' : ' (from the newest ' + Math.round(r.searched_bytes / 1048576) + ' MiB of the log)')
      : 'no decision in the log matches' + (r.whole_log ? '' : ' (searched its newest ' + Math.round(r.searched_bytes / 1048576) + ' MiB)');
  } catch (e) {
    ui.status.textContent = 'cannot search: ' + e.message;
  }
}

function watch() {
  if (stop) {
    stop();
    stop = null;
    ui.go.textContent = 'Watch';
    ui.status.textContent = 'stopped watching';
    return;
  }
  ui.go.textContent = 'Stop';
  ui.status.textContent = 'watching decisions as they are made…';
  stop = stream('tail?' + filters(), (event, data) => {
    if (event === 'dropped') {
      ui.rows.prepend(el('tr', {class: 'warn'}, el('td', {colspan: 5}, data + ' decision(s) skipped: the page could not keep up')));
      return;
    }
    ui.rows.prepend(row(JSON.parse(data)));
    while (ui.rows.children.length > MAX) ui.rows.lastChild.remove();
  }, err => {
    ui.status.textContent = err ? 'stopped: ' + err.message : 'the server closed the stream';
    ui.go.textContent = 'Watch';
    stop = null;
  });
}

function row(r) {
  const d = r.decision || {};
  const open = () => app.show('try', {pack: r.pack, input: r.input, state_before: r.state_before, decision_id: r.decision_id,
    at: r.at, rules_revision: r.rules_revision});
  return el('tr', {class: 'decision-row', 'data-id': r.decision_id, tabindex: 0, title: 'open in Try a message',
    on: {click: open, keydown: ev => { if (ev.key === 'Enter') open(); }}},
    el('td', {}, when(r.at)), el('td', {}, r.pack), el('td', {class: 'rule-name'}, d.rule || 'no rule matched: the pack\'s default'),
    el('td', {class: 'recipients'}, sentTo(r.pack, d)), el('td', {}, el('code', {}, r.decision_id)));
}

/** Who or what a decision sent the message to, per pack, in a few words. */
export function sentTo(pack, d) {
  const list = a => (a || []).join(', ') || 'no one';
  switch (pack) {
    case 'broker': return list(d.primary_recipients) + ((d.fan_out || []).length ? ' (copied: ' + list(d.fan_out) + ')' : '');
    case 'dispatch': return 'agent ' + d.agent_id + (d.model ? ', ' + d.model.name + (d.model.light ? ' (light)' : ' (heavy)') : '');
    case 'signals': return d.action ? d.action.type + (d.action.value ? ' ' + d.action.value : '') : 'unrouted';
    case 'fsm': return d.to ? d.from + ' → ' + d.to : (d.error || '');
    case 'handoff': return d.next ? d.next.type + (d.next.agent ? ' ' + d.next.agent : '') : '';
    default: return '';
  }
}
