import {get, call} from './api.js';
import {el, clear, when} from './dom.js';
import {modeFor} from './drl-mode.js';
import {runImpact} from './impact.js';
import {activationForm} from './activate.js';
import {showCheck} from './check.js';

let root;
let app;
let ui;
let editor;
/** The draft on screen: its record as last read (status, version), the open file, its last check. */
let current = {draft: null, meta: null, file: null, check: null, scenarios: null, files: []};

export function init(section, a) {
  root = section;
  app = a;
  ui = {
    drafts: el('select', {id: 'draft-select'}),
    create: el('button', {id: 'draft-new'}, 'New draft from the live rules'),
    discard: el('button', {id: 'draft-discard'}, 'Discard this draft'),
    working: el('span', {id: 'draft-working', class: 'muted', role: 'status'}),
    status: el('div', {id: 'draft-status', class: 'draft-status', hidden: true}),
    files: el('ul', {id: 'draft-files', class: 'files'}),
    newName: el('input', {id: 'draft-new-file', type: 'text', placeholder: 'broker/more-routing.drl'}),
    addFile: el('button', {id: 'draft-add-file', class: 'small'}, 'Add file'),
    title: el('h3', {id: 'draft-file'}, 'No file open'),
    save: el('button', {id: 'draft-save', class: 'primary'}, 'Save and check'),
    saveError: el('div', {id: 'save-out'}),
    check: el('div', {id: 'draft-check'}),
    editorHost: el('div', {id: 'editor'}),
    impact: el('div', {id: 'impact'}),
    diff: el('div', {id: 'draft-diff'}),
    activate: el('div', {id: 'activate'}),
  };
  ui.drafts.addEventListener('change', () => openDraft(ui.drafts.value));
  ui.create.addEventListener('click', () => createDraft());
  ui.discard.addEventListener('click', () => discardDraft());
  ui.save.addEventListener('click', () => save());
  ui.addFile.addEventListener('click', () => addFile());
  root.append(el('h2', {}, 'Drafts'),
    el('p', {class: 'muted'}, 'A draft is a copy of the rules kept on the server. Edit its files here; every save checks the whole ',
      'draft at once, exactly as "make check" and "make test" do: compile, lint, tables, and every scenario. Then see its impact ',
      'on real traffic, and activate it.'),
    el('div', {class: 'form'}, el('label', {}, 'Draft ', ui.drafts), ui.create, ui.discard, ui.working),
    ui.status,
    el('div', {class: 'workspace'},
      el('div', {class: 'sidebar'}, el('h4', {}, 'Files'), ui.files, el('div', {class: 'toolbar'}, ui.newName, ui.addFile)),
      el('div', {class: 'main'}, ui.title, ui.editorHost, el('div', {class: 'toolbar'}, ui.save), ui.saveError, ui.check)),
    el('h2', {}, 'What it changes, rule by rule'), ui.diff,
    el('h2', {}, 'Impact before activation'), ui.impact,
    el('h2', {}, 'Activate'), ui.activate);
  editor = window.CodeMirror(ui.editorHost, {lineNumbers: true, mode: 'drl', gutters: ['errors', 'CodeMirror-linenumbers'],
    indentUnit: 4, readOnly: 'nocursor', viewportMargin: 50});
  editor.getWrapperElement().id = 'draft-editor';
  // The browser test and scripts reach the editor through this property of its element.
  editor.getWrapperElement().CodeMirror = editor;
  editor.setSize(null, 420);
}

/**
 * arg: {file, line, draft?} opens a file (from the Rules tab, a scenario, a table) in a draft that
 * can take the edit: the one given or open when it is open and up to date, else the newest such
 * draft, else a new one (that needs the admin token). An activated, discarded or out-of-date
 * draft is never picked for a new edit. arg: {draft} alone just opens that draft.
 */
export async function show(arg) {
  if (arg && arg.file) {
    const id = await draftToEdit(arg.draft);
    if (id) await openFile(arg.file, arg.line);
    return;
  }
  await listDrafts(arg && arg.draft);
}

/** The id of an open, up-to-date draft to put an edit in (made when there is none), opened here. */
export async function draftToEdit(preferred) {
  const list = await listDrafts(null, true);
  const usable = d => d && (d.status === 'open' || d.status === 'in_review');
  const pick = [preferred, current.draft].map(id => list.find(d => d.id === id)).find(usable) || list.find(usable);
  if (pick) {
    ui.drafts.value = pick.id;
    if (pick.id !== current.draft || !current.meta) await openDraft(pick.id);
    return pick.id;
  }
  return createDraft();
}

async function listDrafts(select, quiet) {
  let list = [];
  try {
    list = await get('drafts');
  } catch (e) {
    app.notice(e.message, 'error');
  }
  const open = list.filter(d => d.status === 'open' || d.status === 'in_review' || d.status === 'out_of_date');
  const closed = list.filter(d => d.status === 'activated' || d.status === 'discarded');
  clear(ui.drafts).append(el('option', {value: ''}, list.length ? '(choose a draft)' : '(no drafts yet)'));
  if (open.length) ui.drafts.append(el('optgroup', {label: 'Open drafts'}, open.map(option)));
  if (closed.length) ui.drafts.append(el('optgroup', {label: 'Closed drafts (read-only)'}, closed.map(option)));
  const pick = select || current.draft || (open.length ? open[0].id : '');
  ui.drafts.value = pick;
  if (!quiet && pick && pick !== current.draft) await openDraft(pick);
  return list;
}

const STATUS_WORDS = {open: 'open', in_review: 'in review', out_of_date: 'out of date', activated: 'activated', discarded: 'discarded'};

function option(d) {
  return el('option', {value: d.id, 'data-status': d.status}, d.id + ' · ' + STATUS_WORDS[d.status] + ' · ' +
    (d.origin && d.origin !== 'the live rules' ? d.origin + ', ' : '') + new Date(d.created_at).toLocaleString());
}

/** "New draft": answered in seconds on a large bundle, so the button says at once that it is working. */
async function createDraft() {
  ui.create.disabled = true;
  ui.working.textContent = 'Copying the live rules into a new draft and checking it…';
  app.notice('');
  try {
    const d = await call('POST', 'drafts');
    app.notice('Draft ' + d.id + ' created from the live rules.', 'ok');
    await listDrafts(d.id, true);
    showDraft(d);
    await openFirstFile(d);
    return d.id;
  } catch (e) {
    app.notice('Cannot create a draft: ' + e.message, 'error');
    return null;
  } finally {
    ui.create.disabled = false;
    ui.working.textContent = '';
  }
}

async function discardDraft() {
  if (!current.draft) return;
  try {
    const d = await call('DELETE', 'drafts/' + current.draft);
    app.notice('Draft ' + d.id + ' is discarded: it is kept, read-only, among the closed drafts.', 'ok');
    await listDrafts(d.id, true);
    showDraft(d);
  } catch (e) {
    app.notice(e.message, 'error');
  }
}

export async function openDraft(id) {
  if (!id) return;
  const d = await get('drafts/' + id);
  current.file = null;
  showDraft(d);
  await openFirstFile(d);
}

async function openFirstFile(d) {
  const first = d.files.find(f => f.path.endsWith('.drl') && f.status === 'changed') || d.files.find(f => f.path === 'broker/routing.drl') || d.files[0];
  if (first) await openFile(first.path);
}

/** Shows a draft as the server answered it (any answer carrying the draft: read, save, rebase, revert). */
function showDraft(d) {
  const sameRevision = current.draft === d.id && current.check && current.check.revision === d.check.revision;
  current.draft = d.id;
  current.meta = d;
  current.files = d.files;
  current.check = d.check;
  current.scenarios = d.scenarios;
  ui.drafts.value = d.id;
  clear(ui.saveError);
  clear(ui.files);
  for (const f of d.files) {
    ui.files.append(el('li', {class: 'status-' + f.status + (f.path === current.file ? ' open' : '')},
      f.status === 'removed' ? el('span', {}, f.path) : el('a', {href: '#', 'data-path': f.path,
        on: {click: ev => { ev.preventDefault(); openFile(f.path); }}}, f.path),
      f.status === 'unchanged' ? '' : el('span', {class: 'badge'}, f.status)));
  }
  showStatus(d);
  showCheck(ui.check, d, (file, line) => openFile(file, line));
  markErrors();
  const closed = d.status === 'activated' || d.status === 'discarded';
  editor.setOption('readOnly', closed || !current.file ? 'nocursor' : false);
  ui.save.disabled = closed;
  ui.discard.disabled = closed;
  // An impact is of one revision of the draft: a save that changed it clears the old result (and its error).
  if (!sameRevision) clear(ui.impact).append(closed ? el('p', {class: 'muted'}, 'This draft is closed.') : runImpact(d.id, app));
  if (!sameRevision && !closed) showDiff(d.id);
  clear(ui.activate).append(activationForm(d, app, rec => afterActivation(rec), showDraft));
}

function showStatus(d) {
  const s = ui.status;
  clear(s);
  s.hidden = false;
  s.className = 'draft-status status-' + d.status;
  s.dataset.status = d.status;
  const from = d.origin && d.origin !== 'the live rules' ? ' (' + d.origin + ')' : '';
  if (d.status === 'open') {
    s.append(el('strong', {}, 'Open'), ': made from the live rules' + from + ', version ' + d.version + '. ', askForReview(d));
  } else if (d.status === 'in_review') {
    const r = d.review || {};
    s.append(el('strong', {}, 'In review'), ': ' + (r.requested_by || 'its author') + ' asked for review ' + when(r.requested_at) +
      (r.note ? ': "' + r.note + '"' : '') + '. An edit takes it back to open, and the reviewers are asked again.');
  } else if (d.status === 'out_of_date') {
    const rebase = el('button', {id: 'draft-rebase', class: 'primary'}, 'Rebase onto the live rules');
    rebase.addEventListener('click', () => rebaseDraft(rebase));
    s.append(el('strong', {}, 'Out of date'), ': the live rules changed since this draft was made' + from + '. Activating it ',
      'as it is would undo that change. Rebase it: its own changes are applied onto the live rules, and where both changed ',
      'the same lines, both are kept between markers at that line for you to choose. ', rebase);
  } else if (d.status === 'activated') {
    s.append(el('strong', {}, 'Activated'), ' as activation #' + d.activated_as + ', ' + when(d.closed_at) + '. It is closed: ',
      'read-only. Make a new draft to change more.');
  } else {
    s.append(el('strong', {}, 'Discarded'), ' ' + when(d.closed_at) + '. It is closed: read-only.');
  }
}

/**
 * Another person (or another tab) changed a draft: its status line and the list follow; the
 * open file in the editor is never redrawn under what someone types.
 */
export async function refreshStatus(id) {
  if (!ui) return;
  await listDrafts(null, true);
  if (!current.draft || (id && id !== current.draft)) return;
  try {
    const d = await get('drafts/' + current.draft);
    current.meta = d;
    showStatus(d);
    const closed = d.status === 'activated' || d.status === 'discarded';
    ui.save.disabled = closed;
    ui.discard.disabled = closed;
    // The approvals and the activation form follow too (a verdict given elsewhere shows at once), unless
    // someone is typing in them: a typed activation note is kept across the redraw, a focused field is never taken.
    if (!ui.activate.contains(document.activeElement)) {
      clear(ui.activate).append(activationForm(d, app, rec => afterActivation(rec), showDraft));
    }
  } catch (e) {
    // shown at the next action
  }
}

/** The author's hand-off: a note, and the draft waits in every approver's inbox until its content changes. */
function askForReview(d) {
  const note = el('input', {id: 'review-note', type: 'text', size: 50, placeholder: 'what the reviewer should look at (optional)'});
  const go = el('button', {id: 'review-request', class: 'primary'}, 'Ask for review');
  go.addEventListener('click', async () => {
    go.disabled = true;
    try {
      const after = await call('POST', 'drafts/' + d.id + '/request-review', {note: note.value});
      showDraft(after);
      await listDrafts(after.id, true);
      app.notice('Review asked for: the draft waits in every approver\'s inbox ("Waiting for you").', 'ok');
    } catch (e) {
      app.notice('Not asked: ' + e.message, 'error');
      go.disabled = false;
    }
  });
  return el('span', {class: 'review-ask'}, note, go);
}

/** What the draft changes, by rule: in words, and each rule's text before and after side by side. */
async function showDiff(id) {
  const box = clear(ui.diff);
  try {
    const diff = await get('drafts/' + id + '/diff');
    if (!diff.changes) {
      box.append(el('p', {class: 'muted'}, 'This draft changes nothing against the live rules.'));
      return;
    }
    box.append(el('ul', {id: 'diff-words'}, diff.in_words.map(w => el('li', {}, w))));
    for (const r of diff.rules) {
      box.append(el('div', {class: 'diff-rule', 'data-rule': r.rule},
        el('h4', {}, r.rule + ' (' + r.pack + ', ' + r.change + ')'),
        r.cells ? el('ul', {}, r.cells.map(c => el('li', {}, c.column + ': ' + (c.before || '(empty)') + ' → ' + (c.after || '(empty)'))))
          : el('div', {class: 'side-by-side'},
            el('pre', {class: 'before', 'data-side': 'live'}, r.before === null ? '(not in the live rules)' : r.before),
            el('pre', {class: 'after', 'data-side': 'draft'}, r.after === null ? '(removed by the draft)' : r.after))));
    }
  } catch (e) {
    box.append(el('p', {class: 'muted'}, 'The change by rule needs a draft that compiles: ' + e.message));
  }
}

async function rebaseDraft(button) {
  button.disabled = true;
  button.textContent = 'Rebasing…';
  try {
    const d = await call('POST', 'drafts/' + current.draft + '/rebase', {version: current.meta.version});
    showDraft(d);
    const conflicts = d.rebase.conflicts;
    app.notice(conflicts.length
      ? 'Rebased onto the live rules, with ' + conflicts.length + ' conflict(s): each is shown at its line; keep what you want, ' +
        'delete the markers, and save.'
      : 'Rebased onto the live rules: ' + d.rebase.changed_files.length + ' file(s) still differ from them, and nothing conflicted.',
      conflicts.length ? 'error' : 'ok');
    const first = conflicts[0];
    await openFile(first ? first.file : current.file || 'broker/routing.drl', first && first.line);
    await listDrafts(d.id, true);
  } catch (e) {
    app.notice('Not rebased: ' + e.message, 'error');
    button.disabled = false;
    button.textContent = 'Rebase onto the live rules';
  }
}

async function afterActivation(rec) {
  app.refreshRevision();
  await listDrafts(current.draft, true);
  showDraft(await get('drafts/' + current.draft));
  app.notice('Activated as #' + rec.seq + '. The draft is now closed; make a new draft for the next change.', 'ok');
}

export async function openFile(path, line) {
  const f = await get('drafts/' + current.draft + '/file?path=' + encodeURIComponent(path));
  current.file = path;
  ui.title.textContent = path;
  editor.setOption('mode', modeFor(path));
  const closed = current.meta && (current.meta.status === 'activated' || current.meta.status === 'discarded');
  editor.setOption('readOnly', closed ? 'nocursor' : false);
  editor.setValue(f.text);
  editor.clearHistory();
  for (const li of ui.files.children) {
    const a = li.querySelector('a');
    li.classList.toggle('open', !!a && a.dataset.path === path);
  }
  markErrors();
  if (line) {
    editor.setCursor({line: line - 1, ch: 0});
    editor.scrollIntoView({line: line - 1, ch: 0}, 120);
  }
  editor.focus();
}

/** A new, empty file in the draft (a .drl, .json or .md under a pack's folder), opened for editing. */
async function addFile() {
  const name = ui.newName.value.trim();
  if (!current.draft || !name) return;
  try {
    showDraft(await call('PUT', 'drafts/' + current.draft + '/file?path=' + encodeURIComponent(name), {text: '', version: current.meta.version}));
    ui.newName.value = '';
    await openFile(name);
  } catch (e) {
    app.notice('Cannot add ' + name + ': ' + e.message, 'error');
  }
}

/** Writes a file of the open draft at the version on screen; answers with the draft (and its whole check). */
export async function saveFile(path, text) {
  const d = await call('PUT', 'drafts/' + current.draft + '/file?path=' + encodeURIComponent(path), {text, version: current.meta.version});
  showDraft(d);
  return d;
}

async function save() {
  if (!current.draft || !current.file) return;
  ui.save.disabled = true;
  clear(ui.saveError);
  try {
    const d = await saveFile(current.file, editor.getValue());
    const first = d.check.errors.find(x => x.file === current.file && x.line > 0);
    if (first) {
      editor.setCursor({line: first.line - 1, ch: 0});
      editor.scrollIntoView({line: first.line - 1, ch: 0}, 150);
    }
  } catch (e) {
    // Nothing typed is lost: the editor keeps the text whatever the refusal.
    const reload = el('button', {class: 'small', id: 'draft-reload'}, 'Reload the draft (copy your text first)');
    reload.addEventListener('click', () => openDraft(current.draft));
    ui.saveError.append(el('p', {class: 'error', id: 'save-error'}, 'Not saved: ' + e.message, ' ',
      e.code === 'draft_changed' ? reload : ''));
  } finally {
    ui.save.disabled = current.meta && (current.meta.status === 'activated' || current.meta.status === 'discarded');
  }
}

/** Gutter marks: errors (conflicts included) and warnings, and failing scenarios at their line in a scenario file. */
function markErrors() {
  editor.clearGutter('errors');
  for (let i = 0; i < editor.lineCount(); i++) editor.removeLineClass(i, 'background', 'line-error');
  const check = current.check;
  if (!check || !current.file) return;
  const failing = ((current.scenarios && current.scenarios.results) || []).filter(x => !x.passed)
    .map(x => ({file: x.file, line: x.line, message: 'scenario "' + x.name + '" fails'}));
  for (const [kind, items] of [['error', check.errors.concat(failing)], ['warning', check.warnings]]) {
    for (const x of items) {
      if (x.file !== current.file || x.line < 1 || x.line > editor.lineCount()) continue;
      editor.setGutterMarker(x.line - 1, 'errors', el('span', {class: 'gutter-' + kind, title: x.message}, kind === 'error' ? '●' : '▲'));
      if (kind === 'error') editor.addLineClass(x.line - 1, 'background', 'line-error');
    }
  }
}
