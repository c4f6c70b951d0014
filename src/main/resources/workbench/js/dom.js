// Building the page: every piece of text, above all what analysts wrote (rule names, reasons,
// file contents), goes in as textContent, never as HTML, so it always shows as text.

/** el('td', {class: 'x', title: 't'}, 'text', child, ...) */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'on') {
      for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    } else if (k === 'class') {
      e.className = v;
    } else {
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function json(value) {
  return JSON.stringify(value, null, 2);
}

export function when(iso) {
  if (!iso) return 'never';
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString();
}

export function table(headers, rows) {
  return el('table', {}, el('thead', {}, el('tr', {}, headers.map(h => el('th', {}, h)))),
    el('tbody', {}, rows));
}

/** The platform's words an analyst may not know, each said plainly: shown on hover wherever the word is. */
export const TERMS = {
  phase: 'The step of the pack a rule belongs to (its agenda-group): the pack runs its steps in a fixed order, '
    + 'and in a deciding step the first rule that matches decides.',
  salience: 'The order among the rules of one step: the higher number is tried first.',
  invariant: 'A promise the pack always keeps whatever the rules say, e.g. "memory commits never fan out": '
    + 'a change that breaks one cannot go live.',
  bucket: 'Each sender is given a fixed number from 0 to 99; a canary at 20% answers the senders whose number is below 20, '
    + 'so a sender always gets the same arm.',
  revision: 'A fingerprint (sha256) of every rule file: the same rules always have the same revision, any change gives a new one.',
  'golden history': 'Recorded messages with the answers they must keep: each pack\'s replay-fixtures, replayed before any change goes live.',
  shadow: 'The draft decides every message beside the live rules, but the live rules answer: nothing changes for anyone.',
  canary: 'The draft answers a share of the senders for real; the rest keep the live rules.',
};

/** A word of the platform, explained on hover (an abbr with the explanation as its title). */
export function term(word, shown) {
  return el('abbr', {class: 'term', title: TERMS[word] || TERMS[word.toLowerCase()] || ''}, shown || word);
}
