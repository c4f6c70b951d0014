import {get, call} from './api.js';
import {el, clear} from './dom.js';
import {modeFor} from './drl-mode.js';
import {runImpact} from './impact.js';
import {activationForm} from './activate.js';

let root;
let app;
let ui;
let editor;
let current = {draft: null, file: null, check: null, files: []};

export function init(section, a) {
  root = section;
  app = a;
  ui = {
    drafts: el('select', {id: 'draft-select'}),
    create: el('button', {id: 'draft-new'}, 'New draft from the live rules'),
    discard: el('button', {id: 'draft-discard'}, 'Discard this draft'),
    files: el('ul', {id: 'draft-files', class: 'files'}),
    newName: el('input', {id: 'draft-new-file', type: 'text', placeholder: 'broker/more-routing.drl'}),
    addFile: el('button', {id: 'draft-add-file', class: 'small'}, 'Add file'),
    title: el('h3', {id: 'draft-file'}, 'No file open'),
    save: el('button', {id: 'draft-save', class: 'primary'}, 'Save and check'),
    check: el('div', {id: 'draft-check'}),
    editorHost: el('div', {id: 'editor'}),
    impact: el('div', {id: 'impact'}),
    activate: el('div', {id: 'activate'}),
  };
  ui.drafts.addEventListener('change', () => openDraft(ui.drafts.value));
  ui.create.addEventListener('click', () => createDraft());
  ui.discard.addEventListener('click', () => discardDraft());
  ui.save.addEventListener('click', () => save());
  ui.addFile.addEventListener('click', () => addFile());
  root.append(el('h2', {}, 'Drafts'),
    el('p', {class: 'muted'}, 'A draft is a copy of the rules kept on the server. Edit its files here; every save compiles and checks it ',
      'exactly as "make check" does, and shows each error at its line. Then see its impact on real traffic, and activate it.'),
    el('div', {class: 'form'}, el('label', {}, 'Draft ', ui.drafts), ui.create, ui.discard),
    el('div', {class: 'workspace'},
      el('div', {class: 'sidebar'}, el('h4', {}, 'Files'), ui.files, el('div', {class: 'toolbar'}, ui.newName, ui.addFile)),
      el('div', {class: 'main'}, ui.title, ui.editorHost, el('div', {class: 'toolbar'}, ui.save), ui.check)),
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
 * arg: {file, line, draft?} opens a file (from the Rules tab, a scenario, a table) in the draft
 * given, else the one open, else the newest; with no draft at all, a new one is made first, as
 * "New draft" does (that needs the admin token).
 */
export async function show(arg) {
  await listDrafts(arg && arg.draft);
  if (arg && arg.file && !current.draft) await createDraft();
  if (arg && arg.file && current.draft) await openFile(arg.file, arg.line);
}

async function listDrafts(select) {
  let list = [];
  try {
    list = await get('drafts');
  } catch (e) {
    app.notice(e.message, 'error');
  }
  clear(ui.drafts).append(el('option', {value: ''}, list.length ? '(choose a draft)' : '(no drafts yet)'));
  for (const d of list) ui.drafts.append(el('option', {value: d.id}, d.id + ' (from ' + d.base_revision.slice(7, 19) + ', ' +
    new Date(d.created_at).toLocaleString() + ')'));
  const pick = select || current.draft || (list.length ? list[list.length - 1].id : '');
  ui.drafts.value = pick;
  if (pick && pick !== current.draft) await openDraft(pick);
}

async function createDraft() {
  try {
    const d = await call('POST', 'drafts');
    app.notice('Draft ' + d.id + ' created from the live rules.', 'ok');
    await listDrafts(d.id);
    await openDraft(d.id);
  } catch (e) {
    app.notice('Cannot create a draft: ' + e.message, 'error');
  }
}

async function discardDraft() {
  if (!current.draft) return;
  try {
    await call('DELETE', 'drafts/' + current.draft);
    current = {draft: null, file: null, check: null, files: []};
    clear(ui.files);
    editor.setValue('');
    await listDrafts();
  } catch (e) {
    app.notice(e.message, 'error');
  }
}

async function openDraft(id) {
  if (!id) return;
  const d = await get('drafts/' + id);
  current.draft = id;
  current.file = null;
  showDraft(d);
  const first = d.files.find(f => f.path.endsWith('.drl') && f.status === 'changed') || d.files.find(f => f.path === 'broker/routing.drl') || d.files[0];
  if (first) await openFile(first.path);
  clear(ui.impact).append(runImpact(id, app));
  clear(ui.activate).append(activationForm(id, app, () => listDrafts()));
}

function showDraft(d) {
  current.files = d.files;
  current.check = d.check;
  clear(ui.files);
  for (const f of d.files) {
    ui.files.append(el('li', {class: 'status-' + f.status + (f.path === current.file ? ' open' : '')},
      f.status === 'removed' ? el('span', {}, f.path) : el('a', {href: '#', 'data-path': f.path,
        on: {click: ev => { ev.preventDefault(); openFile(f.path); }}}, f.path),
      f.status === 'unchanged' ? '' : el('span', {class: 'badge'}, f.status)));
  }
  showCheck(d.check, d.saved);
}

async function openFile(path, line) {
  const f = await get('drafts/' + current.draft + '/file?path=' + encodeURIComponent(path));
  current.file = path;
  ui.title.textContent = path;
  editor.setOption('mode', modeFor(path));
  editor.setOption('readOnly', false);
  editor.setValue(f.text);
  editor.clearHistory();
  for (const li of ui.files.children) {
    const a = li.querySelector('a');
    li.classList.toggle('open', !!a && a.dataset.path === path);
  }
  markErrors(current.check);
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
    showDraft(await call('PUT', 'drafts/' + current.draft + '/file?path=' + encodeURIComponent(name), {text: ''}));
    ui.newName.value = '';
    await openFile(name);
  } catch (e) {
    app.notice('Cannot add ' + name + ': ' + e.message, 'error');
  }
}

async function save() {
  if (!current.draft || !current.file) return;
  ui.save.disabled = true;
  try {
    const d = await call('PUT', 'drafts/' + current.draft + '/file?path=' + encodeURIComponent(current.file), {text: editor.getValue()});
    showDraft(d);
    markErrors(d.check);
    const first = d.check.errors.find(x => x.file === current.file && x.line > 0);
    if (first) {
      editor.setCursor({line: first.line - 1, ch: 0});
      editor.scrollIntoView({line: first.line - 1, ch: 0}, 150);
    }
  } catch (e) {
    clear(ui.check).append(el('p', {class: 'error', id: 'save-error'}, 'Not saved: ' + e.message));
  } finally {
    ui.save.disabled = false;
  }
}

function showCheck(check, saved) {
  clear(ui.check);
  if (!check) return;
  const head = check.ok
    ? el('p', {class: 'ok', id: 'check-status'}, (saved ? 'Saved. ' : '') + 'The draft compiles' +
        (check.warnings.length ? ', with ' + check.warnings.length + ' warning(s).' : ' with no warnings.'))
    : el('p', {class: 'error', id: 'check-status'}, (saved ? 'Saved, but the' : 'The') + ' draft does not compile: ' +
        check.errors.length + ' error(s).');
  const list = el('ul', {class: 'problems', id: 'check-problems'});
  for (const [kind, items] of [['error', check.errors], ['warning', check.warnings]]) {
    for (const x of items) {
      list.append(el('li', {class: kind, 'data-file': x.file, 'data-line': x.line},
        el('a', {href: '#', on: {click: ev => { ev.preventDefault(); openFile(x.file, x.line); }}}, x.file + ':' + x.line + ':' + x.column),
        ' ' + kind + ': ' + x.message));
    }
  }
  ui.check.append(head, list);
}

function markErrors(check) {
  editor.clearGutter('errors');
  for (const h of editor.getAllMarks()) h.clear();
  for (let i = 0; i < editor.lineCount(); i++) editor.removeLineClass(i, 'background', 'line-error');
  if (!check || !current.file) return;
  for (const [kind, items] of [['error', check.errors], ['warning', check.warnings]]) {
    for (const x of items) {
      if (x.file !== current.file || x.line < 1) continue;
      const marker = el('span', {class: 'gutter-' + kind, title: x.message}, kind === 'error' ? '●' : '▲');
      editor.setGutterMarker(x.line - 1, 'errors', marker);
      if (kind === 'error') editor.addLineClass(x.line - 1, 'background', 'line-error');
    }
  }
}
