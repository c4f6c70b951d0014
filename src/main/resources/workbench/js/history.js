import {get, call} from './api.js';
import {el, clear, when} from './dom.js';

let root;
let app;

export function init(section, a) {
  root = section;
  app = a;
}

export async function show() {
  clear(root).append(el('h2', {}, 'Activations'));
  let list;
  try {
    list = await get('activations');
  } catch (e) {
    root.append(el('p', {class: 'error'}, e.message));
    return;
  }
  if (!list.length) root.append(el('p', {class: 'muted'}, 'Nothing has been activated from the workbench yet.'));
  for (const [i, a] of list.entries()) {
    const note = el('input', {type: 'text', class: 'rollback-note', placeholder: 'why roll back (required)'});
    const accept = el('input', {type: 'checkbox'});
    const out = el('span', {});
    const back = el('button', {class: 'small'}, 'Roll back to the rules before this activation');
    back.addEventListener('click', async () => {
      try {
        const r = await call('POST', 'rollback', {revision: a.old_revision, note: note.value, accept_golden_changes: accept.checked});
        out.textContent = 'Rolled back: now ' + r.new_revision;
        app.refreshRevision();
        show();
      } catch (e) {
        out.textContent = 'Refused (' + e.status + '): ' + e.message;
        out.className = 'error';
      }
    });
    root.append(el('div', {class: 'activation'},
      el('h3', {}, '#' + a.seq + ' ' + a.kind + ' by ' + a.who + ', ' + when(a.at)),
      el('p', {}, el('strong', {}, 'Note: '), a.note),
      el('p', {class: 'muted'}, a.old_revision + ' → ' + a.new_revision),
      el('p', {}, 'Golden history: ' + a.impact.golden_records + ' replayed, ' + a.impact.golden_changes_accepted + ' change(s) accepted'),
      a.diff.map(d => el('details', {open: i === 0}, el('summary', {}, d.file + ' (' + d.status + ')'), el('pre', {class: 'diff'},
        d.diff.split('\n').map(l => el('span', {class: l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : ''}, l + '\n'))))),
      el('div', {class: 'form'}, note, el('label', {}, accept, ' accept golden-history changes'), back, out)));
  }
}
