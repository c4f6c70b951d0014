import {get, token, setToken, stream} from './api.js';
import {TERMS} from './dom.js';
import * as rules from './rules.js';
import * as tryMsg from './try.js';
import * as scenarios from './scenarios.js';
import * as drafts from './drafts.js';
import * as history from './history.js';
import * as live from './live.js';
import * as diagrams from './diagrams.js';
import * as trials from './trials.js';
import * as inbox from './inbox.js';

const tabs = {rules, inbox, try: tryMsg, scenarios, drafts, history, trials, live, diagrams};
const shown = new Set();

/** The page's shared actions: tabs call each other through these (open an example in Try, ...). */
export const app = {
  show(name, arg) {
    app.notice('');
    for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === name);
    for (const key of Object.keys(tabs)) document.getElementById('tab-' + key).hidden = key !== name;
    ensure(name);
    if (tabs[name].show) tabs[name].show(arg);
  },
  notice(text, kind) {
    const n = document.getElementById('notice');
    n.hidden = !text;
    n.className = 'notice ' + (kind || '');
    n.textContent = text || '';
  },
  /** An open, up-to-date draft to put an edit in, as "Edit in a draft" picks it (made when there is none). */
  async editDraft(preferred) {
    ensure('drafts');
    return drafts.draftToEdit(preferred);
  },
  /** Saves a file of the draft the Drafts tab has open; answers with the draft and its whole check. */
  async saveDraftFile(path, text) {
    ensure('drafts');
    return drafts.saveFile(path, text);
  },
  /** Whether the signed-in person holds {@code role} (admin holds every one). */
  has(role) {
    return roles.has(role) || roles.has('admin');
  },
  /** Who the token belongs to, and what they may do: shown beside the token box. */
  async refreshWho() {
    const who = document.getElementById('who');
    try {
      const me = await get('me');
      who.textContent = me.user ? 'signed in as ' + me.user + ' (' + me.roles.join(', ') + ')' : 'reading without a token';
      roles = new Set(me.user ? me.roles || [] : []);
      gateButtons(document.body);
    } catch (e) {
      who.textContent = e.status === 403 ? 'this token is not valid' : '';
    }
  },
  async refreshRevision() {
    try {
      const o = await get('overview');
      const rev = document.getElementById('revision');
      rev.textContent = 'live rules ' + o.revision.slice(0, 19) + '… loaded ' + new Date(o.loaded_at).toLocaleTimeString();
      rev.title = TERMS.revision;
    } catch (e) {
      document.getElementById('revision').textContent = e.status === 401 ? 'enter a token to read the workbench' : e.message;
    }
  },
};

/** The signed-in person's roles (empty: reading without a token). */
let roles = new Set();
const NEEDS = {
  'draft-new': 'author', 'draft-discard': 'author', 'draft-save': 'author', 'draft-add-file': 'author', 'review-request': 'author',
  'approve-go': 'approver', 'reject-go': 'approver', 'activate-go': 'operator', 'trial-start': 'operator',
  'trial-change': 'operator', 'trial-promote': 'operator', 'trial-abort': 'operator',
};

/** Buttons a role cannot use are disabled, saying which role they need (the server refuses them anyway). */
function gateButtons(root) {
  for (const [id, role] of Object.entries(NEEDS)) {
    const b = root.querySelector ? root.querySelector('#' + id) : null;
    if (!b) continue;
    const may = roles.has(role) || roles.has('admin');
    if (!may) {
      b.disabled = true;
      b.title = 'needs the ' + role + ' role' + (roles.size ? '' : ': enter your token above');
      b.dataset.gated = role;
    } else if (b.dataset.gated) {
      b.disabled = false;
      b.title = '';
      delete b.dataset.gated;
    }
  }
}
new MutationObserver(() => gateButtons(document.body)).observe(document.body, {childList: true, subtree: true});

/** Sets a tab up once, shown or not (another tab may need its work: a grid saves through the drafts). */
function ensure(name) {
  if (!shown.has(name)) {
    shown.add(name);
    tabs[name].init(document.getElementById('tab-' + name), app);
  }
}

const tokenInput = document.getElementById('token');
tokenInput.value = token();
tokenInput.addEventListener('change', () => {
  setToken(tokenInput.value.trim());
  app.refreshRevision();
  app.refreshWho();
  inbox.refresh();
});
// The inbox's count in the tab bar, and the header's revision, follow the server: its event stream
// (a fetch stream, which carries the token, as EventSource cannot), and a look every minute besides.
setInterval(() => { inbox.refresh(); app.refreshRevision(); }, 60000);
inbox.refresh();
follow();

/** Follows the event stream (api.js's reader, which carries the token), again 3 s after it ends. */
function follow() {
  stream('events', (type, data) => onEvent(type, JSON.parse(data)), () => setTimeout(follow, 3000));
}

function onEvent(type, data) {
  if (type === 'activation') {
    app.refreshRevision();
    inbox.refresh();
    if (shown.has('drafts') && drafts.refreshStatus) drafts.refreshStatus(data.draft);
  } else if (type === 'review' || type === 'draft') {
    inbox.refresh();
    if (shown.has('drafts') && drafts.refreshStatus) drafts.refreshStatus(data.draft);
  } else if (type === 'trial' || type === 'trials') {
    inbox.refresh();
  }
}
for (const b of document.querySelectorAll('#tabs button')) {
  b.addEventListener('click', () => app.show(b.dataset.tab));
}
app.refreshRevision();
app.refreshWho();
app.show(location.hash.slice(1) in tabs ? location.hash.slice(1) : 'rules');
