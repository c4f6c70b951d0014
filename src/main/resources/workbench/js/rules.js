import {get} from './api.js';
import {el, clear, when, table, term} from './dom.js';

let root;
let app;

export function init(section, a) {
  root = section;
  app = a;
}

const panel = el('div', {id: 'rule-timeline'});

/** One rule's timeline: which activations changed it, who wrote, approved and activated each, the rule's own diff. */
async function timeline(pack, rule) {
  clear(panel).append(el('p', {class: 'muted'}, 'Reading the timeline of "' + rule + '"…'));
  panel.scrollIntoView();
  let h;
  try {
    h = await get('rules/' + encodeURIComponent(pack) + '/' + encodeURIComponent(rule) + '/history');
  } catch (e) {
    clear(panel).append(el('p', {class: 'error'}, e.message));
    return;
  }
  clear(panel).append(el('h3', {}, 'Timeline of "' + h.rule + '" (' + h.pack + ')'),
    el('p', {class: 'muted'}, h.timeline.length ? 'Newest first. Fire counts are since the server started.'
      : 'No activation here changed this rule.'));
  for (const e of h.timeline) {
    panel.append(el('div', {class: 'timeline-entry'},
      el('p', {}, el('strong', {}, '#' + e.activation + ' ' + e.change), ' ' + when(e.at) + ': activated by ',
        el('span', {class: 'who'}, e.activated_by), e.emergency ? el('span', {class: 'badge warn'}, 'emergency rollback') : '',
        e.authors.length ? ', written by ' + e.authors.join(', ') : '',
        e.approvals.length ? ', approved by ' + e.approvals.map(a => a.user + (a.note ? ' ("' + a.note + '")' : '')).join(', ') : ''),
      el('p', {class: 'muted'}, 'Note: ' + e.note + '. Fired ' + e.fired_before + ' time(s) before, ' + e.fired_after + ' after.'),
      el('pre', {class: 'diff'}, e.diff)));
  }
}

/** An author edits the rule in a draft; everyone else reads the live file, read-only, at the rule's line. */
async function openRule(r) {
  if (app.has('author')) {
    app.show('drafts', {file: r.file, line: r.line});
    return;
  }
  let f;
  try {
    f = await get('live/file?path=' + encodeURIComponent(r.file));
  } catch (e) {
    app.notice(e.message, 'error');
    return;
  }
  const lines = f.text.split('\n');
  const view = el('div', {id: 'live-file', class: 'live-file'}, el('h3', {}, r.file + ' (the live rules, read-only)'),
    el('pre', {}, lines.map((l, i) => el('span', {class: i + 1 === r.line ? 'at-line' : '', 'data-line': i + 1},
      String(i + 1).padStart(4) + '  ' + l + '\n'))));
  const old = document.getElementById('live-file');
  if (old) old.remove();
  root.prepend(view);
  const at = view.querySelector('.at-line');
  if (at) at.scrollIntoView({block: 'center'});
}

export async function show() {
  clear(root).append(el('p', {class: 'muted'}, 'Loading the rules as they run…'));
  let data;
  try {
    data = await get('rules');
  } catch (e) {
    clear(root).append(el('p', {class: 'error'}, e.message));
    return;
  }
  clear(root);
  root.append(el('h2', {}, 'Rules, as they run'),
    el('p', {class: 'muted'}, 'Every pack\'s rules in firing order: the ', term('phase'), ' first, then the highest ', term('salience'), '. ',
      'In a first-match group the first rule that matches decides; additive rules only add. ',
      '"Fired" counts since the server started; "last fired" comes from the decision log.'));
  for (const pack of data.packs) {
    const rows = pack.rules.map((r, i) => el('tr', {class: r.never_fired_in_golden_history ? 'never' : ''},
      el('td', {class: 'num'}, String(i + 1)),
      el('td', {}, el('div', {class: 'rule-name'}, r.name), el('div', {class: 'reason'}, r.reason || '(no reason)'),
        r.warnings.map(w => el('div', {class: 'warning'}, 'warning, line ' + w.line + ': ' + w.message))),
      el('td', {}, r.phase, el('br'), el('span', {class: 'muted'}, r.kind + (r.group ? ' (' + r.group + ')' : ''))),
      el('td', {class: 'num'}, String(r.salience)),
      el('td', {}, el('a', {href: '#', class: 'file', on: {click: ev => { ev.preventDefault(); openRule(r); }}},
        r.file + ':' + r.line)),
      el('td', {class: 'num'}, String(r.fired)),
      el('td', {}, when(r.last_fired)),
      el('td', {}, r.never_fired_in_golden_history ? el('span', {class: 'badge warn'}, 'never fired in golden history') : ''),
      el('td', {}, el('a', {href: '#', class: 'timeline-link', on: {click: ev => { ev.preventDefault(); timeline(pack.name, r.name); }}},
        'timeline'))));
    root.append(el('h3', {}, 'Pack ' + pack.name),
      el('p', {class: 'muted'}, 'Files: ' + pack.files.join(', ')),
      table(['#', 'Rule and why', term('phase', 'Phase'), term('salience', 'Salience'), 'Where', 'Fired since this server started', 'Last fired (decision log)', '', 'History'], rows));
  }
  root.append(panel);
  const loose = data.warnings.length;
  root.append(el('p', {class: 'muted'}, loose + ' lint warning(s) in this bundle.'));
}
