import {call} from './api.js';
import {el, clear} from './dom.js';

/** Activation of a draft through the reload gate, with a required note. */
export function activationForm(draftId, app, done) {
  const note = el('textarea', {id: 'activate-note', rows: 3, placeholder: 'What changes, and why (required; it goes in the activation record)'});
  const accept = el('input', {id: 'activate-accept', type: 'checkbox'});
  const go = el('button', {id: 'activate-go', class: 'primary danger'}, 'Activate this draft');
  const out = el('div', {id: 'activate-out'});
  go.addEventListener('click', async () => {
    go.disabled = true;
    clear(out).append(el('p', {class: 'muted'}, 'Checking the draft through the reload gate…'));
    try {
      const r = await call('POST', 'drafts/' + draftId + '/activate', {note: note.value, accept_golden_changes: accept.checked});
      clear(out).append(el('p', {class: 'ok', id: 'activate-result'}, 'Activated: the live rules are now ' + r.new_revision +
        ' (were ' + r.old_revision + '). Recorded as activation #' + r.seq + ' by ' + r.who + '.'));
      app.refreshRevision();
      done();
    } catch (e) {
      clear(out).append(el('p', {class: 'error', id: 'activate-result'}, 'Refused (' + e.status + ' ' + (e.code || '') + '): ' + e.message),
        el('ul', {}, (e.details && e.details.errors || []).map(x => el('li', {}, x.file + ':' + x.line + ': ' + x.message))),
        e.details && e.details.golden_history ? el('ul', {}, e.details.golden_history.changes.map(g =>
          el('li', {}, g.from_rule + ' → ' + g.to_rule + ': ' + g.count + ' recorded decision(s)'))) : '');
    } finally {
      go.disabled = false;
    }
  });
  return el('div', {},
    el('p', {class: 'muted'}, 'Activation goes through the same gate as a reload: the draft must compile, the golden history must ',
      'replay unchanged (or its changes be accepted here, on the record) and every invariant must hold. ',
      'The files are then written into the rules folder and the change is recorded with your note.'),
    el('label', {class: 'block'}, 'Note', note),
    el('label', {}, accept, ' The golden-history changes shown by the impact are intended: record the new decisions'),
    el('div', {class: 'toolbar'}, go), out);
}
