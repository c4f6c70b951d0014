import {get, token, setToken} from './api.js';
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
  /** Who the token belongs to, and what they may do: shown beside the token box. */
  async refreshWho() {
    const who = document.getElementById('who');
    try {
      const me = await get('me');
      who.textContent = me.user ? 'signed in as ' + me.user + ' (' + me.roles.join(', ') + ')' : 'reading without a token';
    } catch (e) {
      who.textContent = e.status === 403 ? 'this token is not valid' : '';
    }
  },
  async refreshRevision() {
    try {
      const o = await get('overview');
      document.getElementById('revision').textContent = 'live rules ' + o.revision.slice(0, 19) + '… loaded ' +
        new Date(o.loaded_at).toLocaleTimeString();
    } catch (e) {
      document.getElementById('revision').textContent = e.status === 401 ? 'enter a token to read the workbench' : e.message;
    }
  },
};

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
// The inbox's count in the tab bar, and the header's revision, follow the server.
setInterval(() => { inbox.refresh(); app.refreshRevision(); }, 10000);
inbox.refresh();
for (const b of document.querySelectorAll('#tabs button')) {
  b.addEventListener('click', () => app.show(b.dataset.tab));
}
app.refreshRevision();
app.refreshWho();
app.show(location.hash.slice(1) in tabs ? location.hash.slice(1) : 'rules');
