// The MemorySync inspector: Preact components written with htm tagged templates (no build step).
// Everything it shows comes from this server over HTTP with the key typed in; the key lives in
// this tab's sessionStorage only.
import { h, render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import htm from "htm";

const html = htm.bind(h);
const KEY_SLOT = "memorysync-inspector-key";
const POLL_MS = 2000;
const PAGE = 200;

// ---- HTTP --------------------------------------------------------------------------------
class HttpError extends Error {
  constructor(status, detail) {
    super(describe(detail));
    this.status = status;
  }
}

function describe(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
  if (detail && detail.message) return detail.message;
  return JSON.stringify(detail);
}

// Header values travel as bytes; the server reads X-End-User-ID as UTF-8.
const headerText = (text) => unescape(encodeURIComponent(text));

async function request(key, method, path, { body, headers } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "X-API-Key": headerText(key), ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new HttpError(0, `Cannot reach the server at ${location.origin}: is memorysync-server still running?`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = null;
  }
  if (!response.ok) throw new HttpError(response.status, data && data.detail !== undefined ? data.detail : text);
  return { data, text };
}

const api = {
  users: (key) => request(key, "GET", `/inspector/api/users?limit=1000`),
  user: (key, user) => request(key, "GET", `/inspector/api/user?user_id=${encodeURIComponent(user)}`),
  forgetUser: (key, user) => request(key, "DELETE", `/inspector/api/user?user_id=${encodeURIComponent(user)}`),
  memories: (key, tenant, user, limit) =>
    request(key, "GET", `/v1/memory/${encodeURIComponent(tenant)}/${encodeURIComponent(user)}/list?limit=${limit}`),
  forget: (key, user, id) =>
    request(key, "DELETE", "/memory/forget", {
      body: { memory_ids: [id], reason: "deleted in the inspector" },
      headers: { "X-End-User-ID": headerText(user) },
    }),
  history: (key, tenant, user, session) =>
    request(key, "POST", "/v1/history/list", { body: { tenant_id: tenant, user_id: user, session_id: session } }),
  state: (key, tenant, user, source) =>
    request(key, "POST", "/v1/state/list", { body: { tenant_id: tenant, user_id: user, source, limit: 5000 } }),
  recall: (key, tenant, user, prompt, k) =>
    request(key, "POST", "/v1/memory/recall", { body: { tenant_id: tenant, user_id: user, prompt, k } }),
};

function keyProblem(error) {
  if (error.status === 401)
    return `This server did not accept that key. ${error.message}`;
  return error.message;
}

// ---- small pieces ------------------------------------------------------------------------
const time = (iso) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : "");
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;
const json = (value) => JSON.stringify(value, null, 2);

function usePoll(fn, deps) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    let stopped = false;
    const tick = () => !stopped && !document.hidden && saved.current();
    tick();
    const timer = setInterval(tick, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, deps);
}

function Confirm({ ask, onClose }) {
  return ask ? html`<${ConfirmDialog} ask=${ask} onClose=${onClose} />` : null;
}

const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

// A modal dialog: it takes focus when it opens (Cancel, the safe choice), keeps Tab and
// Shift+Tab inside itself, closes on Escape, and gives focus back to what opened it.
function ConfirmDialog({ ask, onClose }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const box = useRef(null);
  const cancel = useRef(null);
  useEffect(() => {
    const opener = document.activeElement;
    cancel.current && cancel.current.focus();
    return () => opener && opener.isConnected && opener.focus();
  }, []);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      if (!busy) onClose();
      return;
    }
    if (event.key !== "Tab") return;
    const items = [...box.current.querySelectorAll(FOCUSABLE)];
    if (!items.length) return event.preventDefault();
    const first = items[0];
    const last = items[items.length - 1];
    const inside = box.current.contains(document.activeElement);
    if (event.shiftKey && (document.activeElement === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };
  const go = async () => {
    setBusy(true);
    try {
      await ask.run();
      onClose();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="overlay" onKeyDown=${onKeyDown}>
    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title" ref=${box}>
      <h2 id="confirm-title">${ask.title}</h2>
      ${ask.lines.map((line) => html`<p>${line}</p>`)}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <div class="actions">
        <button class="danger" disabled=${busy} onClick=${go}>${ask.action}</button>
        <button ref=${cancel} onClick=${onClose} disabled=${busy}>Cancel</button>
      </div>
    </div>
  </div>`;
}

// ---- sign in -----------------------------------------------------------------------------
function SignIn({ onSignedIn, notice }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState(notice || "");
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const typed = key.trim();
    if (!typed) return setError("Paste an API key first.");
    setError("");
    setBusy(true);
    try {
      const { data } = await api.users(typed);
      onSignedIn(typed, data.tenant_id);
    } catch (e) {
      setError(keyProblem(e));
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin">
    <h1>MemorySync inspector</h1>
    <p>See what your agents remember: memories, transcripts and state of every user in your tenant.</p>
    <form onSubmit=${submit}>
      <label for="api-key">API key</label>
      <input id="api-key" type="password" autocomplete="off" placeholder="ms_test_…" value=${key}
        onInput=${(e) => setKey(e.target.value)} />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
    ${error && html`<p class="error" role="alert" id="signin-error">${error}</p>`}
    <p class="hint">The key stays in this browser tab only. <code>memorysync-server serve</code> prints one at start-up;
      API docs are at <a href="/docs">/docs</a>.</p>
  </main>`;
}

// ---- users -------------------------------------------------------------------------------
function UserList({ users, total, selected, onSelect }) {
  const [filter, setFilter] = useState("");
  const shown = users.filter((u) => u.user_id.toLowerCase().includes(filter.toLowerCase()));
  return html`<nav class="users" aria-label="Users">
    <h2>Users <span class="muted">${total}</span></h2>
    <input type="search" placeholder="Filter users" value=${filter} onInput=${(e) => setFilter(e.target.value)} />
    ${users.length === 0 && html`<p class="muted">No users yet. Run an agent against this server and they appear here.</p>`}
    ${total > users.length && html`<p class="muted">The ${users.length} most recently active are listed.</p>`}
    <ul>
      ${shown.map(
        (u) => html`<li key=${u.user_id}>
          <button class=${"user" + (u.user_id === selected ? " selected" : "")} data-user=${u.user_id}
            onClick=${() => onSelect(u.user_id)}>
            <span class="name">${u.user_id}</span>
            <span class="counts"><b class="memory-count">${plural(u.memories, "memory", "memories")}</b>${
              ` · ${plural(u.turns, "turn")} · ${plural(u.state_items, "state item")}`}</span>
          </button>
        </li>`
      )}
    </ul>
  </nav>`;
}

// ---- one user ----------------------------------------------------------------------------
function Memories({ auth, user, rev, onAsk }) {
  const [page, setPage] = useState({ memories: [], total: 0 });
  const [limit, setLimit] = useState(PAGE);
  const [error, setError] = useState("");
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    api.memories(auth.key, auth.tenant, user, limit).then(
      ({ data }) => (setPage(data), setError("")),
      (e) => setError(e.message)
    );
  }, [user, rev, limit, reloads]);
  const remove = (m) =>
    onAsk({
      title: `Delete memory ${m.memory_id}?`,
      lines: [
        `“${m.text}”`,
        `This deletes this one memory of user ${user}. The user's other memories, transcripts and state stay.`,
      ],
      action: "Delete memory",
      run: async () => {
        await api.forget(auth.key, user, m.memory_id);
        setReloads((n) => n + 1);
      },
    });
  return html`<section aria-label="Memories">
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <p class="muted">${plural(page.total, "memory", "memories")}, newest first.</p>
    <ol class="memories">
      ${page.memories.map((m) => {
        const supersededBy = m.metadata && m.metadata.superseded_by;
        return html`<li key=${m.memory_id} class=${"memory" + (supersededBy ? " superseded" : "")} data-memory=${m.memory_id}>
          <div class="text" dir="auto">${m.text}</div>
          <div class="meta">
            <code>${m.memory_id}</code> · source <b>${m.source}</b> · <time>${time(m.created_at)}</time>
            ${supersededBy && html` · <span class="badge" title="A newer fact replaces this one">superseded by ${supersededBy}</span>`}
          </div>
          ${m.metadata && Object.keys(m.metadata).length > 0 &&
          html`<details><summary>metadata</summary><pre>${json(m.metadata)}</pre></details>`}
          <button class="danger small" onClick=${() => remove(m)} aria-label=${"Delete " + m.memory_id}>Delete</button>
        </li>`;
      })}
    </ol>
    ${page.total > page.memories.length &&
    html`<button onClick=${() => setLimit(limit + PAGE)}>Show ${Math.min(PAGE, page.total - page.memories.length)} more</button>`}
  </section>`;
}

function Session({ auth, user, session, rev, open }) {
  const [turns, setTurns] = useState(null);
  const [isOpen, setOpen] = useState(open);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!isOpen) return;
    api.history(auth.key, auth.tenant, user, session.session_id).then(
      ({ data }) => (setTurns(data.items), setError("")),
      (e) => setError(e.message)
    );
  }, [isOpen, user, session.session_id, rev]);
  return html`<details class="session" open=${isOpen} onToggle=${(e) => setOpen(e.target.open)}>
    <summary><code>${session.session_id}</code> · ${plural(session.turns, "turn")} · ${session.sources.join(", ")} ·
      last <time>${time(session.last_at)}</time></summary>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${turns &&
    html`<ol class="turns">
      ${turns.map(
        (t) => html`<li key=${t.id} class=${"turn role-" + t.role}>
          <span class="role">${t.role}</span>
          <span class="content">${t.content}</span>
          <time>${time(t.occurred_at || t.created_at)}</time>
        </li>`
      )}
    </ol>`}
  </details>`;
}

function Transcripts({ auth, user, summary, rev }) {
  if (!summary.sessions.length) return html`<p class="muted">No transcripts for ${user}.</p>`;
  return html`<section aria-label="Transcripts">
    ${summary.sessions.map(
      (s, i) => html`<${Session} key=${s.session_id} auth=${auth} user=${user} session=${s} rev=${rev} open=${i === 0} />`
    )}
  </section>`;
}

function State({ auth, user, summary, rev }) {
  const [groups, setGroups] = useState([]);
  const [error, setError] = useState("");
  const sources = [...new Set(summary.state.map((s) => s.source))];
  useEffect(() => {
    Promise.all(sources.map((source) => api.state(auth.key, auth.tenant, user, source))).then(
      (answers) => {
        const byNamespace = new Map();
        answers.forEach(({ data }) =>
          data.items.forEach((item) => {
            const label = `${item.source}: ${item.namespace.join(" / ")}`;
            if (!byNamespace.has(label)) byNamespace.set(label, []);
            byNamespace.get(label).push(item);
          })
        );
        setGroups([...byNamespace.entries()].sort((a, b) => a[0].localeCompare(b[0])));
        setError("");
      },
      (e) => setError(e.message)
    );
  }, [user, rev, sources.join("\n")]);
  if (!summary.state.length) return html`<p class="muted">No state for ${user}.</p>`;
  return html`<section aria-label="State">
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${groups.map(
      ([label, items]) => html`<div class="namespace" key=${label}>
        <h3>${label} <span class="muted">${plural(items.length, "item")}</span></h3>
        <div class="table-scroll"><table>
          <thead><tr><th>key</th><th>value</th><th>updated</th></tr></thead>
          <tbody>
            ${items.map(
              (item) => html`<tr key=${item.id}>
                <td><code>${item.key}</code></td>
                <td><pre>${json(item.value)}</pre></td>
                <td><time>${time(item.updated_at)}</time></td>
              </tr>`
            )}
          </tbody>
        </table></div>
      </div>`
    )}
  </section>`;
}

function Recall({ auth, user }) {
  const [prompt, setPrompt] = useState("");
  const [k, setK] = useState(5);
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { data, text } = await api.recall(auth.key, auth.tenant, user, prompt, Number(k));
      setAnswer({ data, text });
      setError("");
    } catch (e) {
      setError(e.message);
      setAnswer(null);
    } finally {
      setBusy(false);
    }
  };
  return html`<section aria-label="Recall" class="recall">
    <form onSubmit=${run}>
      <label for="recall-prompt">What would the model be handed? Type what ${user} says next:</label>
      <textarea id="recall-prompt" rows="3" dir="auto" value=${prompt} onInput=${(e) => setPrompt(e.target.value)}
        placeholder="Where should we have dinner tonight?"></textarea>
      <label>k <input type="number" min="1" max="100" value=${k} onInput=${(e) => setK(e.target.value)} /></label>
      <button type="submit" id="recall-run" disabled=${busy}>Recall</button>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${answer &&
    html`<div class="answer">
      <h3>context</h3>
      ${answer.data.context
        ? html`<pre class="context">${answer.data.context}</pre>`
        : html`<p class="muted context-empty">Empty: nothing scored above the relevance floor, so the model gets no memory block.</p>`}
      <h3>memories, ranked</h3>
      <div class="table-scroll"><table class="ranked">
        <thead><tr><th>#</th><th>score</th><th>memory</th><th>text</th></tr></thead>
        <tbody>
          ${answer.data.memories.map(
            (m, i) => html`<tr key=${m.memory_id}>
              <td>${i + 1}</td><td class="score">${String(m.score)}</td><td><code>${m.memory_id}</code></td><td dir="auto">${m.text}</td>
            </tr>`
          )}
        </tbody>
      </table></div>
      <details><summary>the answer as sent by POST /v1/memory/recall</summary><pre class="raw">${answer.text}</pre></details>
    </div>`}
  </section>`;
}

function UserView({ auth, user, onAsk, onForgotten, onAuthLost }) {
  const [summary, setSummary] = useState(null);
  const [tab, setTab] = useState("memories");
  const [rev, setRev] = useState(0);
  const version = useRef(null);
  const refresh = useCallback(() => {
    api.user(auth.key, user).then(
      ({ data }) => {
        if (data.version !== version.current) {
          version.current = data.version;
          setSummary(data);
          setRev((r) => r + 1);
        }
      },
      (e) => e.status === 401 && onAuthLost(keyProblem(e))
    );
  }, [user]);
  useEffect(() => {
    version.current = null;
    setSummary(null);
  }, [user]);
  usePoll(refresh, [user]);
  if (!summary) return html`<section class="user-view"><p class="muted">Loading ${user}…</p></section>`;
  const forget = async () => {
    const { data: now } = await api.user(auth.key, user);
    onAsk({
      title: `Forget user ${user}?`,
      lines: [
        `This deletes everything stored for ${user} in tenant ${auth.tenant}: ` +
          `${plural(now.memories, "memory", "memories")}, ` +
          `${plural(now.turns, "transcript turn")} in ${plural(now.sessions.length, "session")} and ` +
          `${plural(now.state_items, "state item")}.`,
        "It cannot be undone. Other users are not touched.",
      ],
      action: `Forget ${user}`,
      run: async () => {
        const { data } = await api.forgetUser(auth.key, user);
        onForgotten(data);
      },
    });
  };
  const tabs = [
    ["memories", `Memories (${summary.memories})`],
    ["transcripts", `Transcripts (${summary.turns})`],
    ["state", `State (${summary.state_items})`],
    ["recall", "Recall"],
  ];
  return html`<section class="user-view" aria-label=${"User " + user}>
    <header>
      <h2>${user}</h2>
      <button class="danger" onClick=${forget}>Forget user…</button>
    </header>
    <div class="tabs" role="tablist">
      ${tabs.map(
        ([id, label]) => html`<button role="tab" aria-selected=${tab === id} data-tab=${id} onClick=${() => setTab(id)}>${label}</button>`
      )}
    </div>
    ${tab === "memories" && html`<${Memories} auth=${auth} user=${user} rev=${rev} onAsk=${onAsk} />`}
    ${tab === "transcripts" && html`<${Transcripts} auth=${auth} user=${user} summary=${summary} rev=${rev} />`}
    ${tab === "state" && html`<${State} auth=${auth} user=${user} summary=${summary} rev=${rev} />`}
    ${tab === "recall" && html`<${Recall} auth=${auth} user=${user} />`}
  </section>`;
}

// ---- the app -----------------------------------------------------------------------------
function App() {
  const [auth, setAuth] = useState(null);
  const [notice, setNotice] = useState("");
  const [users, setUsers] = useState({ users: [], total: 0 });
  const [selected, setSelected] = useState(null);
  const [ask, setAsk] = useState(null);
  const [updated, setUpdated] = useState("");
  const [toast, setToast] = useState("");

  const signIn = (key, tenant) => {
    sessionStorage.setItem(KEY_SLOT, key);
    setNotice("");
    setAuth({ key, tenant });
  };
  const signOut = (message) => {
    sessionStorage.removeItem(KEY_SLOT);
    setAuth(null);
    setSelected(null);
    setNotice(message || "");
  };
  useEffect(() => {
    const saved = sessionStorage.getItem(KEY_SLOT);
    if (saved) api.users(saved).then(({ data }) => signIn(saved, data.tenant_id), (e) => signOut(keyProblem(e)));
  }, []);
  usePoll(() => {
    if (!auth) return;
    api.users(auth.key).then(
      ({ data }) => {
        setUsers(data);
        setUpdated(new Date().toLocaleTimeString());
      },
      (e) => (e.status === 401 ? signOut(keyProblem(e)) : setToast(e.message))
    );
  }, [auth && auth.key]);

  if (!auth) return html`<${SignIn} onSignedIn=${signIn} notice=${notice} />`;
  return html`<div class="shell">
    <header class="top">
      <h1>MemorySync inspector</h1>
      <span class="tenant">tenant <code id="tenant">${auth.tenant}</code></span>
      <span class="live" title="Refreshes every ${POLL_MS / 1000} s">● live${updated && ` · ${updated}`}</span>
      <a href="/docs" target="_blank">API docs</a>
      <button onClick=${() => signOut("")}>Sign out</button>
    </header>
    ${toast && html`<p class="toast" role="status" onClick=${() => setToast("")}>${toast}</p>`}
    <div class="columns">
      <${UserList} users=${users.users} total=${users.total} selected=${selected} onSelect=${setSelected} />
      ${selected
        ? html`<${UserView} key=${selected} auth=${auth} user=${selected} onAsk=${setAsk}
            onAuthLost=${signOut}
            onForgotten=${(d) => {
              setSelected(null);
              setToast(`Forgot ${d.user_id}: ${plural(d.deleted.memories, "memory", "memories")}, ` +
                `${plural(d.deleted.turns, "turn")}, ${plural(d.deleted.state_items, "state item")} deleted.`);
            }} />`
        : html`<section class="user-view"><p class="muted">Pick a user to see what is stored about them.</p></section>`}
    </div>
    <${Confirm} ask=${ask} onClose=${() => setAsk(null)} />
  </div>`;
}

render(html`<${App} />`, document.getElementById("app"));
