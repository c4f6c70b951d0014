import {get} from './api.js';
import {el, clear, table} from './dom.js';

let root;
let drawn = 0;

export function init(section) {
  root = section;
  window.mermaid.initialize({startOnLoad: false, securityLevel: 'strict', theme: 'neutral'});
}

export async function show() {
  clear(root).append(el('p', {class: 'muted'}, 'Loading…'));
  try {
    const [machines, crews, org] = await Promise.all([get('fsm'), get('crews'), get('org-chart')]);
    clear(root).append(el('h2', {}, 'FSM machines'));
    for (const m of machines) {
      const box = el('div', {class: 'diagram'});
      root.append(el('h3', {}, m.name + ' (starts in ' + m.initial_state + ')'), box,
        el('details', {}, el('summary', {}, 'Mermaid text'), el('pre', {}, m.mermaid)),
        table(['From', 'Action', 'To', 'Guard rule', 'Salience', 'Where'], m.transitions.map(t => el('tr', {},
          el('td', {}, t.from), el('td', {}, t.action), el('td', {}, t.to), el('td', {}, t.guard || '(no guard)'),
          el('td', {class: 'num'}, String(t.salience)), el('td', {}, t.file + ':' + t.line)))));
      draw(box, m.mermaid);
    }
    root.append(el('h2', {}, 'Handoff crews'));
    for (const c of crews) {
      root.append(el('h3', {}, 'Crew ' + c.name + ' (starts with ' + c.entry_agent + ', at most ' + c.max_handoffs + ' handoffs)'),
        table(['Agent', 'Says', 'Then', 'Rule', 'Where'], c.signals.map(s => el('tr', {}, el('td', {}, s.agent),
          el('td', {}, el('code', {}, s.signal)), el('td', {}, s.then), el('td', {}, s.rule), el('td', {}, s.file + ':' + s.line)))),
        table(['Agent', 'Terminal', 'Waits for a signal', 'Default handoff targets'], c.agents.map(a => el('tr', {},
          el('td', {}, a.id), el('td', {}, a.is_terminal ? 'yes' : ''), el('td', {}, a.wait_for_signal ? 'yes' : ''),
          el('td', {}, (a.handoff_targets || []).join(', '))))));
    }
    // "Reports to" is the card's reports_to as the file says it; manager(a), which routing uses, falls back to
    // openclaw for an agent that reports to no one, and is said apart so that the chart never shows a loop.
    root.append(el('h2', {}, 'Broker org chart'), table(['Agent', 'Name', 'Title', 'Role', 'Reports to', 'May send'],
      org.map(c => el('tr', {'data-agent': c.id}, el('td', {}, c.id), el('td', {}, c.name || ''), el('td', {}, c.title || ''),
        el('td', {}, c.role || ''),
        el('td', {class: 'reports-to'}, c.reports_to || el('span', {class: 'muted'}, 'no one (routing sends what would go to its ' +
          'manager to ' + c.manager + ')')),
        el('td', {}, c.authority ? c.authority.join(', ') : 'anything')))));
  } catch (e) {
    clear(root).append(el('p', {class: 'error'}, e.message));
  }
}

/** Mermaid renders the SVG from the machine's text (strict mode: labels are sanitised); on failure the text stays. */
async function draw(box, text) {
  try {
    const {svg} = await window.mermaid.render('fsm-diagram-' + (++drawn), text);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    box.append(document.importNode(doc.documentElement, true));
  } catch (e) {
    box.append(el('pre', {}, text), el('p', {class: 'warn'}, 'The diagram could not be drawn: ' + e.message));
  }
}
