import {get} from './api.js';
import {el, clear, when, table} from './dom.js';

let root;
let app;

export function init(section, a) {
  root = section;
  app = a;
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
    el('p', {class: 'muted'}, 'Every pack\'s rules in firing order: the phase first, then the highest salience. ',
      'In a first-match group the first rule that matches decides; additive rules only add. ',
      '"Fired" counts since the server started; "last fired" comes from the decision log.'));
  for (const pack of data.packs) {
    const rows = pack.rules.map((r, i) => el('tr', {class: r.never_fired_in_golden_history ? 'never' : ''},
      el('td', {class: 'num'}, String(i + 1)),
      el('td', {}, el('div', {class: 'rule-name'}, r.name), el('div', {class: 'reason'}, r.reason || '(no reason)'),
        r.warnings.map(w => el('div', {class: 'warning'}, 'warning, line ' + w.line + ': ' + w.message))),
      el('td', {}, r.phase, el('br'), el('span', {class: 'muted'}, r.kind + (r.group ? ' (' + r.group + ')' : ''))),
      el('td', {class: 'num'}, String(r.salience)),
      el('td', {}, el('a', {href: '#', class: 'file', on: {click: ev => { ev.preventDefault(); app.show('drafts', {file: r.file, line: r.line}); }}},
        r.file + ':' + r.line)),
      el('td', {class: 'num'}, String(r.fired)),
      el('td', {}, when(r.last_fired)),
      el('td', {}, r.never_fired_in_golden_history ? el('span', {class: 'badge warn'}, 'never fired in golden history') : '')));
    root.append(el('h3', {}, 'Pack ' + pack.name),
      el('p', {class: 'muted'}, 'Files: ' + pack.files.join(', ')),
      table(['#', 'Rule and why', 'Phase', 'Salience', 'Where', 'Fired', 'Last fired', ''], rows));
  }
  const loose = data.warnings.length;
  root.append(el('p', {class: 'muted'}, loose + ' lint warning(s) in this bundle.'));
}
