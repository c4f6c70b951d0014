import {call} from './api.js';
import {el, clear, when, term} from './dom.js';

/**
 * Activation of a draft through the reload gate, with a required note. Only an open, up-to-date
 * draft can be activated; the form names the draft version it activates, and once the draft is
 * activated the form is gone with it (the note and the tick never carry over to another draft).
 */
/** Notes typed but not yet used, by draft: a save redraws the form, and must not lose them. */
const typed = new Map();

/**
 * Four eyes: where the draft's content stands (the approvals that count, a rejection that stands,
 * verdicts given to content since edited), and approve / reject with a note, each bound to the
 * content shown here (the server refuses a verdict on content that changed since).
 */
function approvalsPanel(draft, redraw) {
  const a = draft.approvals;
  if (!a) return '';
  const closed = draft.status === 'activated' || draft.status === 'discarded';
  const list = el('ul', {id: 'approvals-list'},
    a.approvals.map(v => el('li', {class: 'ok'}, 'approved by ' + v.user + ' (' + when(v.at) + '), '
      + (v.impact_job ? 'having seen the impact of this content' : 'without running the impact') + ': ' + (v.note || ''))),
    a.rejections.map(v => el('li', {class: 'error'}, 'rejected by ' + v.user + ' (' + when(v.at) + '): ' + (v.note || ''))),
    a.for_other_content.map(v => el('li', {class: 'muted'}, v.verdict + ' by ' + v.user + ' before a later edit: counts no more')));
  const summary = el('p', {id: 'approvals-summary', class: a.enough ? 'ok' : 'muted'}, a.required === 0
    ? 'This server needs no approvals before an activation.'
    : a.approvals.length + ' of ' + a.required + ' approval(s) by someone other than its authors' +
      (a.enough ? ': it may be activated.' : a.rejections.length ? ', and a rejection stands.' : '.'));
  if (closed) return el('div', {id: 'approvals'}, summary, list);
  const note = el('textarea', {id: 'verdict-note', rows: 2, placeholder: 'Why (required; it goes in the audit log)'});
  const out = el('div', {id: 'verdict-out'});
  const verdict = which => async () => {
    try {
      const d = await call('POST', 'drafts/' + draft.id + '/' + which, {note: note.value, content_hash: draft.content_hash});
      redraw(d);
    } catch (e) {
      clear(out).append(el('p', {class: 'error', id: 'verdict-result'}, 'Refused (' + e.status + ' ' + (e.code || '') + '): ' + e.message));
    }
  };
  return el('div', {id: 'approvals'}, el('h4', {}, 'Approvals'), summary, list,
    el('label', {class: 'block'}, 'Your verdict on this content', note),
    el('div', {class: 'toolbar'}, el('button', {id: 'approve-go', on: {click: verdict('approve')}}, 'Approve'),
      el('button', {id: 'reject-go', class: 'danger', on: {click: verdict('reject')}}, 'Reject')), out);
}

/**
 * What the operator is asked to accept: the golden history's changes from the draft's last impact
 * run (any role may run it), or a word that none was run over this content yet.
 */
function goldenChanges(draft) {
  const impact = draft.impact;
  const golden = impact && !impact.stale && impact.report && impact.report.golden_history;
  if (!golden) {
    return el('p', {id: 'activate-golden', class: 'muted'}, 'No impact was run over the draft as it is now: run it above to see ' +
      'which recorded decisions of the golden history would change before you accept them.');
  }
  const groups = golden.groups || golden.changes || [];
  if (!golden.changed) {
    return el('p', {id: 'activate-golden', class: 'ok'}, 'The golden history replays unchanged (' + golden.records + ' decisions).');
  }
  return el('div', {id: 'activate-golden'}, el('p', {}, golden.changed + ' of the golden history\'s ' + golden.records +
    ' recorded decisions would change:'), el('ul', {}, groups.map(g => el('li', {}, (g.from_rule || g.from) + ' → ' +
    (g.to_rule || g.to) + ': ' + g.count + ' decision(s)'))));
}

export function activationForm(draft, app, done, redraw) {
  return el('div', {}, approvalsPanel(draft, redraw), activationOnly(draft, app, done));
}

function activationOnly(draft, app, done) {
  if (draft.status !== 'open' && draft.status !== 'in_review') {
    const why = draft.status === 'out_of_date' ? 'This draft is out of date: rebase it onto the live rules first (above).'
      : 'This draft is ' + draft.status + ' and closed: nothing more to activate.';
    return el('p', {class: 'muted', id: 'activate-closed'}, why);
  }
  const note = el('textarea', {id: 'activate-note', rows: 3, placeholder: 'What changes, and why (required; it goes in the activation record)'});
  note.value = typed.has(draft.id) ? typed.get(draft.id) : draft.suggested_note || '';
  note.addEventListener('input', () => typed.set(draft.id, note.value));
  const accept = el('input', {id: 'activate-accept', type: 'checkbox'});
  const go = el('button', {id: 'activate-go', class: 'primary danger'}, 'Activate this draft');
  const out = el('div', {id: 'activate-out'});
  go.addEventListener('click', async () => {
    go.disabled = true;
    clear(out).append(el('p', {class: 'muted'}, 'Checking the draft through the reload gate…'));
    try {
      const r = await call('POST', 'drafts/' + draft.id + '/activate', {note: note.value, accept_golden_changes: accept.checked,
        version: draft.version});
      note.value = '';
      typed.delete(draft.id);
      accept.checked = false;
      clear(out).append(el('p', {class: 'ok', id: 'activate-result'}, 'Activated: the live rules are now ' + r.new_revision +
        ' (were ' + r.old_revision + '). Recorded as activation #' + r.seq + ' by ' + r.who + '.'));
      await done(r);
    } catch (e) {
      clear(out).append(el('p', {class: 'error', id: 'activate-result'}, 'Refused (' + e.status + ' ' + (e.code || '') + '): ' + e.message),
        el('ul', {}, (e.details && e.details.errors || []).map(x => el('li', {}, x.file + ':' + x.line + ': ' + x.message))),
        e.details && e.details.golden_history ? el('ul', {}, e.details.golden_history.changes.map(g =>
          el('li', {}, g.from_rule + ' → ' + g.to_rule + ': ' + g.count + ' recorded decision(s)'))) : '');
      go.disabled = false;
    }
  });
  return el('div', {},
    el('p', {class: 'muted'}, 'Activation goes through the same gate as a reload: the draft must compile, the golden history must ',
      'replay unchanged (or its changes be accepted here, on the record) and every ', term('invariant'), ' must hold. ',
      'The files are then written into the rules folder, the change is recorded with your note, and this draft is closed.'),
    el('label', {class: 'block'}, 'Note', note),
    goldenChanges(draft),
    el('label', {}, accept, ' The golden-history changes shown here are intended: record the new decisions'),
    el('div', {class: 'toolbar'}, go), out);
}
