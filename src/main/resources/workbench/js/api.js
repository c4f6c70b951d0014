// The workbench API. The token is sent in the Authorization header only (never a cookie), and
// kept for this tab's session in sessionStorage.
const TOKEN_KEY = 'signalman.workbench.token';

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setToken(t) {
  if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY);
}

/** A refusal from the server: status, code, message and located errors, as the page shows them. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : 'HTTP ' + status);
    this.status = status;
    this.code = body && body.error;
    this.details = body && body.details;
  }
}

export async function call(method, path, body) {
  return send('api/' + path, method, body);
}

/**
 * The live trials' endpoints, /v1/trials + path: the operator's, beside the workbench on the same
 * listener (with an admin listener, both are there), taking the same token.
 */
export async function trials(method, path, body) {
  return send('/v1/trials' + path, method, body);
}

async function send(url, method, body) {
  const headers = {'Accept': 'application/json'};
  if (token()) headers['Authorization'] = 'Bearer ' + token();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {method, headers, credentials: 'omit',
    body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await res.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch (e) { parsed = {message: text}; }
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}

export const get = path => call('GET', path);

/** Reads a Server-Sent Events stream with fetch (so the token can go in a header); returns a stop function. */
export function stream(path, onEvent, onEnd) {
  const ctl = new AbortController();
  const headers = {};
  if (token()) headers['Authorization'] = 'Bearer ' + token();
  (async () => {
    try {
      const res = await fetch('api/' + path, {headers, signal: ctl.signal, credentials: 'omit'});
      if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buf += dec.decode(value, {stream: true});
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const chunk = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = 'message';
          const data = [];
          for (const line of chunk.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) onEvent(event, data.join('\n'));
        }
      }
      onEnd(null);
    } catch (e) {
      if (e.name !== 'AbortError') onEnd(e);
    }
  })();
  return () => ctl.abort();
}
