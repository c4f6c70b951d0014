import {call, get} from './api.js';
import {el, clear, json, term} from './dom.js';

/** The impact panel of a draft: replay it against the live rules, with live progress. */
export function runImpact(draftId, app) {
  const since = el('input', {id: 'impact-since', type: 'text', placeholder: 'e.g. 2026-11-20T00:00:00Z (optional)'});
  const until = el('input', {id: 'impact-until', type: 'text', placeholder: 'optional'});
  const sample = el('input', {id: 'impact-sample', type: 'text', value: '1', size: 4, title: 'the share of logged decisions to replay, e.g. 0.1'});
  const withLog = el('input', {id: 'impact-log', type: 'checkbox', checked: true});
  const go = el('button', {id: 'impact-run', class: 'primary'}, 'Run the impact');
  const bar = el('progress', {id: 'impact-progress', max: 1, value: 0, hidden: true});
  const phase = el('span', {id: 'impact-phase', class: 'muted'});
  const out = el('div', {id: 'impact-out'});
  go.addEventListener('click', async () => {
    go.disabled = true;
    clear(out);
    bar.hidden = false;
    try {
      let job = await call('POST', 'drafts/' + draftId + '/impact', {decision_log: withLog.checked,
        since: since.value.trim() || null, until: until.value.trim() || null, sample: Number(sample.value) || 1});
      while (job.state === 'running') {
        bar.max = Math.max(1, job.total);
        bar.value = job.done;
        phase.textContent = job.phase + ': ' + (job.total ? Math.round(100 * job.done / job.total) : 0) + '% read, ' +
          job.records + ' decisions';
        await new Promise(r => setTimeout(r, 250));
        job = await get('impact/' + encodeURIComponent(job.id));
      }
      bar.value = bar.max;
      if (job.state === 'failed') throw new Error(job.error);
      phase.textContent = 'done';
      out.append(report('On the golden history', job.report.golden_history, draftId, app));
      if (job.report.decision_log) {
        out.append(report('On the decisions this server logged' + window_(job.report.decision_log), job.report.decision_log, draftId, app));
      }
    } catch (e) {
      out.append(el('p', {class: 'error'}, 'The impact did not run: ' + e.message));
    } finally {
      go.disabled = false;
    }
  });
  return el('div', {},
    el('p', {class: 'muted'}, 'Replays the draft against the live rules over the golden history and, if ticked, over the ',
      'decision log (a window of it, when times are given). Every decision that would change is counted and said in words, by the ',
      'rules or table rows whose contribution changed, with examples to open in Try.'),
    el('div', {class: 'form'}, el('label', {}, withLog, ' include the decision log'),
      el('label', {}, 'since ', since), el('label', {}, 'until ', until), el('label', {}, 'sample ', sample), go),
    el('div', {}, bar, ' ', phase), out);
}

function window_(l) {
  const when = l.since || l.until ? ' (' + (l.since || '…') + ' to ' + (l.until || 'now') + ')' : '';
  return when + (l.sample < 1 ? ', a ' + l.sample + ' sample' : '');
}

function report(title, r, draftId, app) {
  const changed = r.changed;
  const box = el('div', {class: 'report'}, el('h3', {}, title),
    el('p', {class: changed ? 'warn' : 'ok'}, r.records + ' decisions replayed: ' + r.unchanged + ' unchanged, ' + changed + ' changed, ' +
      r.invariant_violation_count + ' ', term('invariant'), ' violation(s).'));
  const tryIt = x => el('button', {class: 'small', on: {click: () => app.show('try', {pack: x.pack || packOf(x), input: x.input,
    state_before: x.state_before, draft: draftId})}}, 'Open in Try');
  // What changed, in words, by the rules or table rows whose contribution changed.
  for (const g of r.in_words || []) {
    box.append(el('div', {class: 'words'},
      el('h4', {}, because(g), el('span', {class: 'badge'}, g.count + ' decision(s)')),
      el('ul', {}, g.effects.map(e => el('li', {class: 'effect'}, el('span', {class: 'sentence'}, e.sentence),
        el('ul', {class: 'examples'}, e.examples.map(x => el('li', {},
          el('span', {class: 'muted', title: x.record}, x.record.split('/').slice(-2).join('/') + ' '),
          changes(x.diff),
          tryIt(x))),
          e.more ? el('li', {class: 'muted more'}, e.more + ' more') : ''))))));
  }
  if (r.changes.length) {
    box.append(el('details', {class: 'by-rule'}, el('summary', {}, 'The same changes by deciding rule (old rule → new rule)'),
      r.changes.map(g => el('div', {class: 'group'},
        el('h4', {}, el('span', {class: 'rule-name'}, g.from_rule), ' → ', el('span', {class: 'rule-name'}, g.to_rule), ' ',
          el('span', {class: 'badge'}, g.count + ' decision(s)')),
        el('ul', {}, g.examples.map(x => el('li', {},
          el('span', {class: 'muted', title: x.record}, x.record.split('/').slice(-2).join('/') + ' '),
          changes(x.diff),
          tryIt(x))), g.count > g.examples.length ? el('li', {class: 'muted more'}, (g.count - g.examples.length) + ' more') : '')))));
  }
  for (const v of r.invariant_violations) {
    box.append(el('div', {class: 'violation'}, el('strong', {}, 'Invariant "' + v.invariant + '" breaks'), ': ' + v.message,
      el('div', {}, 'Smallest input that breaks it:'), el('pre', {}, json(v.minimal_input))));
  }
  const stops = Object.entries(r.stops_firing || {});
  if (stops.length) {
    box.append(el('h4', {}, 'Rules that would stop firing'),
      el('p', {class: 'muted'}, 'Each fires for some of these ' + r.records + ' decisions with the live rules, and for none of them ',
        'with the draft.'),
      el('ul', {class: 'stops'}, stops.flatMap(([p, rules]) => rules.map(n => el('li', {}, p + ': ', el('span', {class: 'rule-name'}, n))))));
  }
  for (const p of r.problems || []) box.append(el('p', {class: 'warn'}, p));
  return box;
}

/** "Because of the table row “long messages lean heavy” (dispatch/model.csv:11)": what a group of changes is put down to. */
function because(g) {
  if (g.because.length) {
    return el('span', {}, 'Because of ', g.because.map((b, i) => el('span', {},
      i ? ', ' : '', b.table_row ? 'the table row ' : 'the rule ', el('span', {class: 'rule-name'}, '“' + b.rule + '”'),
      b.file ? ' (' + b.file + ':' + b.line + ')' : '')), ' ');
  }
  return el('span', {}, g.files && g.files.length ? 'Because of ' + g.files.join(', ') + ' ' : 'Other changes ');
}

/** What changed in one decision, field by field down to the values that differ (model.score: 0.35 → 0.4), not whole objects. */
function changes(diff) {
  const out = [];
  const walk = (path, a, b) => {
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(path + '.' + k, a[k], b[k]);
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push(el('code', {}, path + ': ' + show(a) + ' → ' + show(b) + ' '));
    }
  };
  for (const [f, d] of Object.entries(diff)) walk(f, d.old, d.new);
  return out;
}

function show(v) {
  if (v === undefined || v === null) return 'nothing';
  return Array.isArray(v) ? '[' + v.join(', ') + ']' : typeof v === 'string' ? v : JSON.stringify(v);
}

function packOf(change) {
  const rec = change.record || '';
  for (const p of ['broker', 'signals', 'fsm', 'dispatch', 'handoff']) {
    if (rec.includes('/' + p + '/') || rec.startsWith(p + '/')) return p;
  }
  return 'broker';
}
