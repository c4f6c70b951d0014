import {el, clear} from './dom.js';

// The whole check of a draft, as one answer shows it (issue 28): one status line that never says
// "compiles" alone while a scenario fails or a scenario file cannot be read, then every problem
// at its file and line (conflicts, compile and lint errors, table and scenario-file errors),
// warnings, and each failing scenario with what it expected and what came out.

/** The status line's words for a draft answer ({check, scenarios, saved?}). */
export function statusLine(d) {
  const c = d.check;
  const s = d.scenarios;
  const saved = d.saved ? 'Saved. ' : '';
  if (!c.compiles) {
    const others = c.counts.errors;
    return {ok: false, text: (d.saved ? 'Saved, but the' : 'The') + ' draft does not compile: ' + others + ' error(s)' +
      (s.scenarios ? '; its ' + s.scenarios + ' scenarios did not run.' : '.')};
  }
  const warnings = c.warnings.length ? ', with ' + c.warnings.length + ' warning(s)' : ' with no warnings';
  const problems = [];
  if (s.failed) problems.push(s.failed + ' of ' + s.scenarios + ' scenarios fail');
  if (c.counts.conflicts) problems.push(c.counts.conflicts + ' unresolved conflict(s)');
  if (c.counts.scenario_file_errors) problems.push(c.counts.scenario_file_errors + ' scenario file problem(s)');
  const otherErrors = c.counts.errors - c.counts.conflicts - c.counts.scenario_file_errors;
  if (otherErrors > 0) problems.push(otherErrors + ' other error(s)');
  if (!problems.length) return {ok: true, text: saved + 'The draft compiles' + warnings + '; all ' + s.scenarios + ' scenarios pass.'};
  return {ok: false, text: saved + 'The draft compiles' + warnings + ', but ' + problems.join(', ') + '.'};
}

/** Renders the check into {@code box}; {@code open(file, line)} opens a place in the editor. */
export function showCheck(box, d, open) {
  clear(box);
  if (!d || !d.check) return;
  const line = statusLine(d);
  box.append(el('p', {class: line.ok ? 'ok' : 'error', id: 'check-status'}, line.text));
  const list = el('ul', {class: 'problems', id: 'check-problems'});
  const at = x => el('a', {href: '#', on: {click: ev => { ev.preventDefault(); open(x.file, x.line); }}},
    x.file + ':' + x.line + (x.column ? ':' + x.column : ''));
  for (const [kind, items] of [['error', d.check.errors], ['warning', d.check.warnings]]) {
    for (const x of items) {
      list.append(el('li', {class: kind, 'data-file': x.file, 'data-line': x.line}, at(x), ' ' + kind + ': ' + x.message));
    }
  }
  for (const r of (d.scenarios.results || []).filter(x => !x.passed)) {
    list.append(el('li', {class: 'error scenario-failure', 'data-file': r.file, 'data-line': r.line, 'data-name': r.name}, at(r),
      ' scenario "' + r.name + '" fails: ' + (r.error || r.mismatches.map(m => m.field + ' expected ' + JSON.stringify(m.expected) +
        ', came out ' + (m.actual === null ? 'nothing' : JSON.stringify(m.actual))).join('; '))));
  }
  if (d.scenarios.not_run) box.append(el('p', {class: 'muted'}, d.scenarios.not_run + '.'));
  box.append(list);
}
