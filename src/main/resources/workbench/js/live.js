import {stream} from './api.js';
import {el, clear, when} from './dom.js';

let root;
let stop = null;
const MAX = 200;

export function init(section) {
  root = section;
  const pack = el('select', {id: 'live-pack'}, el('option', {value: ''}, 'all packs'),
    ['broker', 'signals', 'fsm', 'dispatch', 'handoff'].map(p => el('option', {value: p}, p)));
  const rule = el('input', {id: 'live-rule', type: 'text', placeholder: 'part of a rule name'});
  const text = el('input', {id: 'live-text', type: 'text', placeholder: 'any text in the decision'});
  const go = el('button', {id: 'live-go', class: 'primary'}, 'Watch');
  const status = el('span', {class: 'muted', id: 'live-status'}, 'not watching');
  const list = el('ol', {id: 'live-list', class: 'live'});
  go.addEventListener('click', () => {
    if (stop) {
      stop();
      stop = null;
      go.textContent = 'Watch';
      status.textContent = 'stopped';
      return;
    }
    const q = new URLSearchParams();
    if (pack.value) q.set('pack', pack.value);
    if (rule.value.trim()) q.set('rule', rule.value.trim());
    if (text.value.trim()) q.set('q', text.value.trim());
    clear(list);
    go.textContent = 'Stop';
    status.textContent = 'watching decisions as they are made…';
    stop = stream('tail?' + q, (event, data) => {
      if (event === 'dropped') {
        list.prepend(el('li', {class: 'warn'}, data + ' decision(s) skipped: the page could not keep up'));
        return;
      }
      const r = JSON.parse(data);
      const d = r.decision || {};
      list.prepend(el('li', {}, el('span', {class: 'muted'}, when(r.at) + ' ' + r.pack + ' '),
        el('span', {class: 'rule-name'}, d.rule || '(no rule)'), ' ',
        el('code', {}, JSON.stringify(r.input).slice(0, 200))));
      while (list.children.length > MAX) list.lastChild.remove();
    }, err => {
      status.textContent = err ? 'stopped: ' + err.message : 'the server closed the stream';
      go.textContent = 'Watch';
      stop = null;
    });
  });
  root.append(el('h2', {}, 'Live decisions'),
    el('div', {class: 'form'}, el('label', {}, 'Pack ', pack), el('label', {}, 'Rule ', rule), el('label', {}, 'Text ', text), go, status),
    list);
}
