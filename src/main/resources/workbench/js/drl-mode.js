// A DRL mode for CodeMirror 5 on its simple-mode addon: keywords, rule attributes, annotations
// such as @reason, strings, numbers, comments and the platform's decision calls.
const CM = window.CodeMirror;

CM.defineSimpleMode('drl', {
  start: [
    {regex: /"(?:[^\\"]|\\.)*?(?:"|$)/, token: 'string'},
    {regex: /\/\/.*/, token: 'comment'},
    {regex: /\/\*/, token: 'comment', next: 'comment'},
    {regex: /@[A-Za-z_][\w]*/, token: 'meta'},
    {regex: /\b(?:package|import|global|rule|when|then|end|query|declare|function|not|exists|forall|from|collect|accumulate|eval|and|or|in|matches|memberOf|contains|str|this|true|false|null)\b/,
      token: 'keyword'},
    {regex: /\b(?:salience|agenda-group|activation-group|no-loop|lock-on-active|ruleflow-group|dialect|enabled|date-effective|date-expires|duration|timer)\b/,
      token: 'attribute'},
    {regex: /\bdecide\b/, token: 'variable-2'},
    {regex: /[a-z_][\w]*/, token: null},
    {regex: /\$[A-Za-z_]\w*/, token: 'variable-3'},
    {regex: /-?\d+(?:\.\d+)?/, token: 'number'},
    {regex: /[A-Z][\w]*/, token: 'type'},
    {regex: /[-+\/*=<>!&|]+/, token: 'operator'},
  ],
  comment: [
    {regex: /.*?\*\//, token: 'comment', next: 'start'},
    {regex: /.*/, token: 'comment'},
  ],
  meta: {lineComment: '//', blockCommentStart: '/*', blockCommentEnd: '*/'},
});

export function modeFor(path) {
  if (path.endsWith('.drl')) return 'drl';
  if (path.endsWith('.json')) return {name: 'javascript', json: true};
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return 'yaml';
  if (path.endsWith('.md')) return 'markdown';
  return 'text/plain';
}
