import {get, call} from './api.js';
import {el, clear, when} from './dom.js';

// The activation record: each activation with its note and diff, "Revert this activation" (a new
// draft of the live rules minus that activation's own diff) and "Roll back to here" (the rules
// before it, which undoes every later activation too, and says which).

let root;
let app;

export function init(section, a) {
  root = section;
  app = a;
}

export async function show() {
  clear(root).append(el('h2', {}, 'Activations'),
    el('p', {class: 'muted'}, '"Revert this activation" undoes one change and keeps every later one: it makes a draft of the live rules ',
      'without that activation\'s diff, which you check, see the impact of, and activate like any draft. "Roll back" goes back to ',
      'the rules as they were before an activation, and so undoes every activation after it too.'));
  let list;
  try {
    list = await get('activations');
  } catch (e) {
    root.append(el('p', {class: 'error'}, e.message));
    return;
  }
  if (!list.length) root.append(el('p', {class: 'muted'}, 'Nothing has been activated from the workbench yet.'));
  for (const [i, a] of list.entries()) root.append(activation(a, i === 0));
}

function activation(a, newest) {
  const out = el('div', {class: 'outcome'});
  const revert = el('button', {class: 'small revert', 'data-seq': a.seq}, 'Revert this activation');
  revert.addEventListener('click', async () => {
    revert.disabled = true;
    revert.textContent = 'Making a draft without #' + a.seq + '…';
    try {
      const d = await call('POST', 'activations/' + a.seq + '/revert', {});
      const c = d.revert.conflicts;
      app.show('drafts', {draft: d.id});
      app.notice(d.revert.nothing_to_revert ? 'Draft ' + d.id + ' made, but it changes nothing: the live rules no longer hold #' +
        a.seq + '\'s changes.' : 'Draft ' + d.id + ' reverts #' + a.seq + (c.length ? ', with ' + c.length + ' conflict(s) where a ' +
        'later activation changed the same lines: each is shown at its line.' : '; every later activation stays. Check it, see ' +
        'its impact, and activate it.'), c.length ? 'error' : 'ok');
    } catch (e) {
      out.textContent = 'Not reverted (' + e.status + '): ' + e.message;
      out.className = 'outcome error';
      revert.disabled = false;
      revert.textContent = 'Revert this activation';
    }
  });
  const note = el('input', {type: 'text', class: 'rollback-note', placeholder: 'why roll back (required)'});
  const accept = el('input', {type: 'checkbox'});
  const back = el('button', {class: 'small rollback'}, 'Roll back to the rules before this activation');
  back.addEventListener('click', async () => {
    try {
      const r = await call('POST', 'rollback', {revision: a.old_revision, note: note.value, accept_golden_changes: accept.checked});
      out.textContent = 'Rolled back: now ' + r.new_revision;
      app.refreshRevision();
      show();
    } catch (e) {
      out.textContent = 'Refused (' + e.status + '): ' + e.message;
      out.className = 'outcome error';
    }
  });
  // An operator's emergency: this one activation undone at once, without approvals, marked emergency.
  const emergency = el('button', {class: 'small emergency-revert', 'data-seq': a.seq}, 'Undo this activation now (emergency)');
  emergency.addEventListener('click', async () => {
    try {
      const r = await call('POST', 'activations/' + a.seq + '/emergency-revert', {note: note.value, accept_golden_changes: accept.checked});
      out.textContent = 'Undone as activation #' + r.seq + ', marked emergency: now ' + r.new_revision;
      out.className = 'outcome ok';
      app.refreshRevision();
      show();
    } catch (e) {
      out.textContent = 'Refused (' + e.status + '): ' + e.message;
      out.className = 'outcome error';
    }
  });
  const undoes = a.rollback_undoes || [];
  return el('div', {class: 'activation', 'data-seq': a.seq},
    el('h3', {}, '#' + a.seq + ' ' + a.kind + ' by ' + a.who + ', ' + when(a.at)),
    el('p', {}, el('strong', {}, 'Note: '), a.note),
    el('p', {class: 'muted'}, a.old_revision + ' → ' + a.new_revision),
    a.impact ? el('p', {}, 'Golden history: ' + a.impact.golden_records + ' replayed, ' + a.impact.golden_changes_accepted +
      ' change(s) accepted') : el('p', {class: 'muted'}, a.kind === 'seed' ? 'The rules the cluster started from.' : ''),
    (a.diff || []).map(d => el('details', {open: newest}, el('summary', {}, d.file + ' (' + d.status + ')'), diff(d.diff))),
    el('div', {class: 'form'}, revert, out),
    el('div', {class: 'form rollback-form'}, note, el('label', {}, accept, ' accept golden-history changes'), back, emergency,
      el('span', {class: undoes.length ? 'warn rollback-undoes' : 'muted rollback-undoes'}, undoes.length
        ? 'This also undoes the later ' + undoes.map(u => '#' + u.seq + ' (' + u.note + ')').join(', ') + '.'
        : 'No later activation: this undoes only #' + a.seq + '.')));
}

/** A diff as written in the record: unified (file headers and @@ hunks), or the older plain +/- lines. */
function diff(text) {
  const lines = text.split('\n').filter(l => !l.startsWith('--- ') && !l.startsWith('+++ '));
  return el('pre', {class: 'diff'}, lines.map(l => el('span', {class: l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add'
    : l.startsWith('-') ? 'del' : ''}, l + '\n')));
}
