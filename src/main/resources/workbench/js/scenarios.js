import {get} from './api.js';
import {el, clear, json, table} from './dom.js';
import {tableGrid} from './grid.js';
import {statusLine} from './check.js';

// Scenarios and decision tables, of the live rules or of a draft: the scenarios run exactly as
// "bin/signalman test" and the reload gate run them, the tables as Drools reads them.

let app;
let ui;
let loading = 0;

export function init(section, a) {
  app = a;
  ui = {
    draft: el('select', {id: 'suite-draft'}),
    run: el('button', {id: 'suite-run', class: 'primary'}, 'Run the scenarios again'),
    summary: el('div', {id: 'scenario-summary'}),
    scenarios: el('div', {id: 'scenario-files'}),
    tables: el('div', {id: 'tables'}),
  };
  ui.draft.addEventListener('change', () => load());
  ui.run.addEventListener('click', () => load());
  section.append(el('h2', {}, 'Scenarios'),
    el('p', {class: 'muted'}, 'The named examples beside the rules (rules/<pack>/scenarios/*.yaml): an input and the decision it must ',
      'come out with. They run as "bin/signalman test" and the reload gate run them; a failing one shows what was expected, ',
      'what came out, and why.'),
    el('div', {class: 'form'}, el('label', {}, 'Rules ', ui.draft), ui.run),
    ui.summary, ui.scenarios,
    el('h2', {}, 'Decision tables'),
    el('p', {class: 'muted'}, 'Each .csv or .xlsx table beside a pack\'s DRL, as Drools reads it into rules: one rule per row, ',
      'each at its line.'),
    ui.tables);
}

/** arg: {draft} to show a given draft's scenarios and tables. */
export async function show(arg) {
  await loadDrafts(arg && arg.draft);
  await load();
}

async function loadDrafts(selected) {
  const keep = selected || ui.draft.value;
  clear(ui.draft).append(el('option', {value: ''}, '(the live rules)'));
  try {
    for (const d of await get('drafts')) ui.draft.append(el('option', {value: d.id}, 'draft ' + d.id + ' (' + d.status.replace(/_/g, ' ') + ')'));
  } catch (e) { /* reading drafts may need a token; the live rules still show */ }
  ui.draft.value = keep;
  if (ui.draft.value !== keep) ui.draft.value = '';
}

async function load() {
  const seq = ++loading;
  const draft = ui.draft.value;
  const q = draft ? '?draft=' + encodeURIComponent(draft) : '';
  const which = draft ? 'draft ' + draft : 'the live rules';
  clear(ui.summary).append(el('p', {class: 'muted'}, 'Running the scenarios of ' + which + '…'));
  clear(ui.scenarios);
  clear(ui.tables).append(el('p', {class: 'muted'}, 'Reading the tables…'));
  ui.run.disabled = true;
  const [s, t] = await Promise.allSettled([get('scenarios' + q), get('tables' + q)]);
  if (seq !== loading) return; // another choice was made meanwhile
  ui.run.disabled = false;
  showScenarios(s, which, draft);
  showTables(t, which, draft);
}

function edit(draft, file, line) {
  app.show('drafts', {file, line, draft: draft || undefined});
}

function editButton(draft, file, line) {
  return el('button', {class: 'small edit', 'data-path': file, on: {click: () => edit(draft, file, line)}}, 'Edit in a draft');
}

function located(draft, x) {
  return el('a', {href: '#', class: 'file', on: {click: ev => { ev.preventDefault(); edit(draft, x.file, x.line); }}},
    x.file + ':' + x.line);
}

function problems(draft, kind, items) {
  return el('ul', {class: 'problems'}, items.map(x => el('li', {class: kind}, located(draft, x), ' ' + kind + ': ' + x.message)));
}

function showScenarios(settled, which, draft) {
  if (settled.status === 'rejected') {
    const e = settled.reason;
    const errors = (e.details && e.details.errors) || [];
    clear(ui.summary).append(el('p', {class: 'error', id: 'scenario-status'}, errors.length
      ? 'The ' + which + ' does not compile, so no scenario ran: ' + errors.length + ' error(s).' : e.message),
      errors.length ? problems(draft, 'error', errors) : '');
    return;
  }
  const r = settled.value;
  const status = r.passed ? r.scenarios + ' scenarios passed'
    : r.failed + ' of ' + r.scenarios + ' scenarios failed' + (r.errors.length ? ', ' + r.errors.length + ' problem(s) in scenario files' : '');
  clear(ui.summary).append(el('p', {}, el('span', {class: r.passed ? 'ok' : 'error', id: 'scenario-status'}, status + ' (' + which + ').'),
    ' ', el('span', {class: 'muted'}, 'By pack: ' + Object.entries(r.packs).map(([p, c]) => p + ' ' + c.passed + ' of ' + c.scenarios).join(', '))));
  // One line per scenario file (its passing scenarios fold out of its name), then each failure in full.
  const files = [...new Set([...r.results.map(x => x.file), ...r.errors.map(x => x.file)])].sort();
  const rows = files.map(file => {
    const results = r.results.filter(x => x.file === file);
    const passed = results.filter(x => x.passed);
    const failed = results.length - passed.length + r.errors.filter(x => x.file === file).length;
    return el('tr', {class: failed ? 'has-failures' : '', 'data-path': file},
      el('td', {}, el('details', {}, el('summary', {class: 'file'}, file),
        el('ul', {class: 'passed'}, passed.map(x => el('li', {}, x.name, ' ', el('span', {class: 'muted'}, 'line ' + x.line)))))),
      el('td', {class: 'num'}, el('span', {class: 'badge ok'}, String(passed.length))),
      el('td', {class: 'num'}, failed ? el('span', {class: 'badge fail'}, String(failed)) : '0'),
      el('td', {}, editButton(draft, file)));
  });
  const list = table(['Scenario file (click for its scenarios)', 'Passed', 'Failed', ''], rows);
  list.classList.add('suite-files');
  ui.scenarios.append(list);
  if (r.errors.length) ui.scenarios.append(el('h3', {}, 'Problems in scenario files'), problems(draft, 'error', r.errors));
  for (const x of r.results.filter(x => !x.passed)) ui.scenarios.append(failure(draft, x));
  const untested = Object.entries(r.not_exercised || {});
  if (untested.length) {
    ui.scenarios.append(el('p', {class: 'muted'}, 'Rules no scenario exercises (the golden history may): ',
      untested.map(([p, names]) => p + ': ' + names.map(n => '"' + n + '"').join(', ')).join('; ')));
  }
}

function failure(draft, x) {
  return el('div', {class: 'scenario fail', 'data-name': x.name},
    el('div', {}, el('span', {class: 'badge fail'}, 'failed'), ' ', el('strong', {}, x.name), ' ', located(draft, x), ' ',
      editButton(draft, x.file, x.line)),
    x.error ? el('p', {class: 'error'}, x.error) : '',
    x.mismatches.length ? el('table', {class: 'mismatches'},
      el('thead', {}, el('tr', {}, el('th', {}, 'field'), el('th', {}, 'expected'), el('th', {}, 'came out'))),
      el('tbody', {}, x.mismatches.map(m => el('tr', {'data-field': m.field},
        el('th', {}, m.field), el('td', {}, JSON.stringify(m.expected)),
        el('td', {}, m.actual === null ? 'nothing' + (m.note ? ' (' + m.note + ')' : '') : JSON.stringify(m.actual)))))) : '',
    x.explanation && x.explanation.length ? el('details', {}, el('summary', {}, 'Why: ' + x.explanation[0]),
      el('pre', {}, x.explanation.slice(1).join('\n')), el('pre', {}, json(x.decision))) : '');
}

function showTables(settled, which, draft) {
  clear(ui.tables);
  if (settled.status === 'rejected') {
    ui.tables.append(el('p', {class: 'error'}, settled.reason.message));
    return;
  }
  const files = settled.value.files;
  if (!files.length) {
    ui.tables.append(el('p', {class: 'muted'}, 'No decision tables in ' + which + '.'));
    return;
  }
  for (const f of files) {
    ui.tables.append(el('div', {class: 'suite-file' + (f.errors.length ? ' has-failures' : ''), 'data-path': f.path},
      el('h3', {}, el('span', {class: 'file'}, f.path), ' ', editButton(draft, f.path)),
      f.errors.length ? problems(draft, 'error', f.errors) : '',
      f.warnings.length ? problems(draft, 'warning', f.warnings) : '',
      f.tables.map(t => {
        const box = el('div', {class: 'table-view'}, decisionTable(t));
        // A CSV table is text the grid writes back; a spreadsheet (.xlsx) is edited in its own program.
        const grid = f.path.endsWith('.csv') ? el('button', {class: 'small grid-edit', 'data-path': f.path, 'data-table': t.name},
          'Edit as a grid') : el('span', {class: 'muted'}, '');
        if (f.path.endsWith('.csv')) grid.addEventListener('click', () => editGrid(draft, f.path, t.name, box, grid));
        return el('div', {}, el('h4', {}, t.name, ' ', el('span', {class: 'muted'}, 'line ' + t.line), ' ', grid), box);
      })));
  }
}

/**
 * The table as a grid, in a draft that can take the edit (the one chosen here when it is open and
 * up to date, else as "Edit in a draft" picks one); after a save, the tab shows that draft.
 */
async function editGrid(draft, path, name, box, button) {
  button.disabled = true;
  clear(box).append(el('p', {class: 'muted'}, 'Opening the table in a draft…'));
  try {
    const id = await app.editDraft(draft || undefined);
    if (!id) throw new Error('no draft to edit in (the admin token is needed to make one)');
    clear(box).append(await tableGrid(id, path, name, text => app.saveDraftFile(path, text), async d => {
      const line = statusLine(d);
      await loadDrafts(id);
      await load();
      app.notice(path + ' saved to draft ' + id + '. ' + line.text, line.ok ? 'ok' : 'error');
    }));
  } catch (e) {
    clear(box).append(el('p', {class: 'error'}, 'Cannot edit the table: ' + e.message));
    button.disabled = false;
  }
}

/** Columns that hold sentences (a rule's name, its reason), given room so a row stays a few lines high. */
const TEXT_COLUMNS = new Set(['NAME', 'METADATA', 'DESCRIPTION']);

function decisionTable(t) {
  const head = [el('span', {title: 'the line of each rule in the file'}, 'line'),
    ...t.columns.map(c => el('span', {title: c.kind + (c.type ? ' on ' + c.type : '') + (c.code ? ': ' + c.code : '')},
      c.label || c.kind, el('span', {class: 'kind'}, c.kind.toLowerCase()), c.code ? el('code', {}, c.code) : ''))];
  const body = t.rows.map(r => el('tr', {'data-line': r.line}, el('td', {class: 'num'}, String(r.line)),
    r.cells.map((v, i) => el('td', {class: TEXT_COLUMNS.has(t.columns[i].kind) ? 'text' : ''}, v))));
  const out = table(head, body);
  out.classList.add('decision-table');
  return el('div', {class: 'table-scroll'}, out);
}
