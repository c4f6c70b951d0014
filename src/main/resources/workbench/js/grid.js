import {get} from './api.js';
import {el, clear} from './dom.js';
import {statusLine} from './check.js';

// A decision table edited as a grid: one row per rule, a typed cell per column, rows added and
// removed; each cell is checked as it is typed against its column's kind of value, in words, and
// the table is saved back into the draft as the same CSV: only the rows that changed are written
// anew, every other line (headers, comments, untouched rows) stays byte for byte.

const CHECKS = {
  integer: v => /^-?[0-9]+$/.test(v) ? null : '“' + v + '” is not a whole number: write digits only, for example 600',
  number: v => /^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(v) ? null : /^-?[0-9]+,[0-9]+$/.test(v)
    ? '“' + v + '” is not a number: write decimals with a dot, ' + v.replace(',', '.')
    : '“' + v + '” is not a number: write one such as 0.35',
  boolean: v => v === 'true' || v === 'false' ? null : '“' + v + '” is neither true nor false: write one of them, or leave it ' +
    'empty so that this condition is not tested',
  text: () => null,
};

const HINTS = {integer: 'a whole number', number: 'a number, decimals with a dot', boolean: 'true or false', text: 'text'};

/** What is wrong with a cell's value for its column, in words; null when it is fine (an empty cell always is). */
export function cellProblem(column, value) {
  const v = value.trim();
  return v === '' ? null : (CHECKS[column.value_type] || CHECKS.text)(v);
}

/**
 * The grid of one table of {@code path} in draft {@code draft}: {@code save(text)} writes the CSV
 * back (and answers with the draft's whole check); {@code done()} is called after a save.
 */
export async function tableGrid(draft, path, tableName, save, done) {
  const [file, view] = await Promise.all([get('drafts/' + draft + '/file?path=' + encodeURIComponent(path)),
    get('tables?draft=' + encodeURIComponent(draft))]);
  const f = view.files.find(x => x.path === path);
  const table = f && f.tables.find(t => t.name === tableName);
  if (!table) {
    return el('p', {class: 'error'}, 'The draft\'s ' + path + ' has no readable table "' + tableName + '": edit it as text, at the errors shown.');
  }
  if (file.text.split('\n').some(l => (l.match(/"/g) || []).length % 2 === 1)) {
    // A quoted cell over several lines: rows are found by line, so the grid would write the wrong ones.
    return el('p', {class: 'error'}, path + ' has a cell written over several lines: edit it as text ("Edit in a draft").');
  }
  const rows = table.rows.map(r => ({line: r.line, cells: r.cells.slice(), removed: false}));
  const body = el('tbody', {});
  const problems = el('ul', {class: 'problems', id: 'grid-problems'});
  const status = el('p', {id: 'grid-status', class: 'muted'}, 'Editing ' + path + ' in draft ' + draft + '.');
  const saveButton = el('button', {id: 'grid-save', class: 'primary'}, 'Save the table to the draft');
  const addButton = el('button', {id: 'grid-add', class: 'small'}, 'Add a row');

  const validate = () => {
    clear(problems);
    let bad = 0;
    for (const [i, r] of rows.entries()) {
      if (r.removed) continue;
      r.cells.forEach((v, c) => {
        const p = cellProblem(table.columns[c], v);
        const input = body.querySelector('tr[data-row="' + i + '"] input[data-col="' + c + '"]');
        if (input) {
          input.classList.toggle('invalid', !!p);
          input.title = p || HINTS[table.columns[c].value_type] || '';
        }
        if (p) {
          bad++;
          problems.append(el('li', {class: 'error', 'data-row': i, 'data-col': c},
            (r.line ? 'line ' + r.line : 'new row') + ', ' + (table.columns[c].label || table.columns[c].kind) + ': ' + p));
        }
      });
    }
    saveButton.disabled = bad > 0;
    return bad;
  };

  const draw = () => {
    clear(body);
    rows.forEach((r, i) => {
      if (r.removed) return;
      const remove = el('button', {class: 'small grid-remove', title: 'remove this rule'}, '✕');
      remove.addEventListener('click', () => { r.removed = true; draw(); });
      body.append(el('tr', {'data-row': i, 'data-line': r.line || ''}, el('td', {class: 'num'}, r.line ? String(r.line) : 'new'),
        r.cells.map((v, c) => {
          const input = el('input', {type: 'text', 'data-col': c, value: v, class: 'cell cell-' + table.columns[c].value_type,
            size: table.columns[c].value_type === 'text' ? 28 : 6});
          input.addEventListener('input', () => { r.cells[c] = input.value; validate(); });
          return el('td', {}, input);
        }), el('td', {}, remove)));
    });
    validate();
  };

  addButton.addEventListener('click', () => { rows.push({line: 0, cells: table.columns.map(() => ''), removed: false}); draw(); });
  saveButton.addEventListener('click', async () => {
    if (validate()) return;
    saveButton.disabled = true;
    status.className = 'muted';
    status.textContent = 'Saving and checking the draft…';
    try {
      const d = await save(rewrite(file.text, table, rows));
      const line = statusLine(d);
      status.className = line.ok ? 'ok' : 'error';
      status.textContent = line.text;
      await done(d);
    } catch (e) {
      status.className = 'error';
      status.textContent = 'Not saved: ' + e.message;
      saveButton.disabled = false;
    }
  });
  const head = el('tr', {}, el('th', {}, 'line'), table.columns.map(c => el('th', {title: c.code || c.kind},
    c.label || c.kind, el('span', {class: 'kind'}, HINTS[c.value_type] || 'text'))), el('th', {}, ''));
  draw();
  return el('div', {class: 'grid', 'data-path': path},
    el('div', {class: 'table-scroll'}, el('table', {class: 'decision-table grid-table'}, el('thead', {}, head), body)),
    el('div', {class: 'toolbar'}, addButton, ' ', saveButton), problems, status);
}

/** The CSV with the grid's rows written in: changed rows rewritten, removed ones dropped, new ones after the last. */
export function rewrite(text, table, rows) {
  const crlf = text.includes('\r\n');
  const lines = text.split('\n').map(l => crlf ? l.replace(/\r$/, '') : l);
  const width = Math.max(...table.columns.map(c => c.index)) + 1;
  const lastLine = Math.max(table.line + 4, ...table.rows.map(r => r.line));
  const edited = new Map();
  for (const r of rows) {
    if (!r.line) continue;
    const original = table.rows.find(x => x.line === r.line);
    if (r.removed) {
      edited.set(r.line, null);
    } else if (original.cells.some((v, c) => v !== r.cells[c])) {
      // Only the cells that changed are written anew; the others keep their text, quotes and all.
      const raw = rawCells(lines[r.line - 1]);
      table.columns.forEach((c, i) => {
        if (original.cells[i] !== r.cells[i]) raw[c.index] = quote(r.cells[i]);
      });
      edited.set(r.line, raw.join(','));
    }
  }
  const added = rows.filter(r => !r.line && !r.removed && r.cells.some(v => v.trim() !== '')).map(r => {
    const cells = new Array(Math.max(width, parseLine(lines[lastLine - 1] || '').length)).fill('');
    table.columns.forEach((c, i) => { cells[c.index] = r.cells[i]; });
    return cells.map(quote).join(',');
  });
  const out = [];
  lines.forEach((l, i) => {
    const n = i + 1;
    if (edited.has(n)) {
      if (edited.get(n) !== null) out.push(edited.get(n));
    } else {
      out.push(l);
    }
    if (n === lastLine) out.push(...added);
  });
  return out.join(crlf ? '\r\n' : '\n');
}

/** One CSV line into its cells as written (quotes included), padded to at least {@code width}. */
function rawCells(line, width) {
  const raw = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= line.length; i++) {
    if (i === line.length || (line[i] === ',' && !quoted)) {
      raw.push(line.slice(start, i));
      start = i + 1;
    } else if (line[i] === '"') {
      quoted = !quoted;
    }
  }
  while (raw.length < (width || 0)) raw.push('');
  return raw;
}

/** One CSV line into its cells (quoted cells with "" for a quote, as Drools' CSV reader takes them). */
export function parseLine(line) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell);
  return cells;
}

function quote(v) {
  return /[",\r\n]/.test(v) || v !== v.trim() ? '"' + v.replace(/"/g, '""') + '"' : v;
}
