import {get} from './api.js';
import {el, clear, when} from './dom.js';

// "Waiting for you": what waits for this person's roles. An approver: drafts in review. An
// operator: approved drafts to activate, and running trials. An author: their rejected drafts,
// the rejection's note first. The tab's count follows the inbox every ten seconds.

let root;
let app;
let box;

export function init(section, a) {
  root = section;
  app = a;
  box = el('div', {id: 'inbox'});
  root.append(el('h2', {}, 'Waiting for you'),
    el('p', {class: 'muted'}, 'What your roles have to do now: drafts to review, approved drafts to activate, running trials, ',
      'and your drafts that were rejected.'), box);
}

export async function show() {
  await refresh();
}

/** Reads the inbox; shows it when the tab is open, and its count in the tab bar always. */
export async function refresh() {
  let inbox;
  try {
    inbox = await get('inbox');
  } catch (e) {
    count(null);
    if (box) clear(box).append(el('p', {class: 'muted'}, e.status === 401 ? 'Enter your token to see what waits for you.' : e.message));
    return;
  }
  count(inbox.counts.total);
  if (!box) return;
  clear(box);
  const open = id => el('button', {class: 'small open-draft', 'data-draft': id, on: {click: () => app.show('drafts', {draft: id})}},
    'Open');
  section('inbox-review', 'Drafts to review', inbox.review, d => [d.requested_by + ' asks for review ' + when(d.requested_at) +
    (d.review_note ? ': "' + d.review_note + '"' : ''), open(d.draft)]);
  section('inbox-activate', 'Approved, to activate', inbox.activate, d => ['draft ' + d.draft + ': ' + d.approvals + ' of ' +
    d.required + ' approval(s) needed', open(d.draft)]);
  section('inbox-trials', 'Running trials', inbox.trials, t => ['trial ' + t.id + ' of draft ' + t.draft + ', ' + t.mode +
    (t.mode === 'canary' ? ' ' + t.percent + '%' : ''), el('button', {class: 'small', on: {click: () => app.show('trials')}},
    'Open')]);
  section('inbox-rejected', 'Your drafts that were rejected', inbox.rejected, d => [el('strong', {}, '"' + (d.rejection_note || '') +
    '"'), ' — ' + d.rejected_by + ', ' + when(d.rejected_at) + ' (draft ' + d.draft + ') ', open(d.draft)]);
  if (!inbox.counts.total) box.append(el('p', {id: 'inbox-empty', class: 'muted'}, 'Nothing waits for you.'));
}

function section(id, title, items, line) {
  if (!items || !items.length) return;
  box.append(el('h3', {}, title + ' (' + items.length + ')'), el('ul', {id}, items.map(i => el('li', {}, line(i)))));
}

function count(n) {
  const b = document.querySelector('#tabs button[data-tab=inbox]');
  if (b) b.textContent = 'Waiting for you' + (n ? ' (' + n + ')' : '');
}
