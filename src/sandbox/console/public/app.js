// The sandbox console's page: a small Slack-like client. It draws what the console server says
// each person sees (GET /api/state, refreshed on Server-Sent Events), and sends what a person does
// to the server, which signs it as Slack would and posts it to the bot.
import { escapeHtml, mrkdwnToHtml, renderBlocks, textToHtml } from './blockkit.js';

/** @typedef {Record<string, any>} Json */

const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (document.querySelector(selector));

const ui = {
  me: new URLSearchParams(location.search).get('user') || localStorage.getItem('console.me') || '',
  channel: 'C0GENERAL',
  tab: 'messages',
  /** @type {Json | undefined} */ state: undefined,
  /** @type {Set<string>} */ expanded: new Set(),
  /** @type {Map<string, string>} */ drafts: new Map(),
  modalSignature: '',
  /** @type {Record<string, string>} */ modalErrors: {},
  homeSignature: '',
  /** Slack's emoji by shortcode, from /emoji.json */
  /** @type {Record<string, string>} */ emoji: {},
};

/* ------------------------------------------------------------------ server */

async function api(/** @type {string} */ path, /** @type {Json} */ body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: ui.me, ...body }),
  });
  const answer = await res.json().catch(() => ({ ok: false, error: `HTTP ${res.status}` }));
  if (!res.ok) console.warn(path, answer);
  return answer;
}

let loading = false;
let dirty = false;
async function refresh() {
  if (loading) {
    dirty = true;
    return;
  }
  loading = true;
  try {
    do {
      dirty = false;
      const res = await fetch(`/api/state?user=${encodeURIComponent(ui.me)}`);
      if (res.ok) {
        ui.state = await res.json();
        ui.me = ui.state?.me ?? ui.me;
        render();
      }
    } while (dirty);
  } finally {
    loading = false;
  }
}

let panelLoading = false;
let panelDirty = false;
async function refreshPanel() {
  if (panelLoading) {
    panelDirty = true;
    return;
  }
  panelLoading = true;
  try {
    do {
      panelDirty = false;
      const res = await fetch('/api/emulator');
      if (res.ok) renderPanel(await res.json());
    } while (panelDirty);
  } finally {
    panelLoading = false;
  }
}

function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('change', (event) => {
    const { what } = JSON.parse(/** @type {MessageEvent} */ (event).data);
    if (what !== 'emulator') void refresh();
    if (what !== 'slack') void refreshPanel();
  });
}

/* ------------------------------------------------------------------ render */

function renderOptions() {
  const s = ui.state;
  /** @type {Record<string, string>} */
  const users = {};
  for (const u of s?.users ?? []) users[u.id] = u.display_name;
  if (s) users[s.botUserId] = s.appName;
  /** @type {Record<string, string>} */
  const channels = {};
  for (const c of s?.channels ?? []) channels[c.id] = c.name;
  // Date tokens read in the viewing person's own time zone, as Slack shows them.
  const timeZone = s?.users.find((/** @type {Json} */ u) => u.id === ui.me)?.tz;
  return { users, channels, emoji: ui.emoji, ...(timeZone ? { timeZone } : {}) };
}

function authorName(/** @type {Json} */ m) {
  const s = ui.state;
  if (!s) return '';
  if (m.user === 'USLACKBOT') return 'Slackbot';
  if (m.bot) return s.appName;
  return s.users.find((/** @type {Json} */ u) => u.id === m.user)?.display_name ?? m.user ?? 'someone';
}

function render() {
  const s = ui.state;
  if (!s) return;
  renderSidebar();
  const channel = s.channels.find((/** @type {Json} */ c) => c.id === ui.channel) ?? s.channels[0];
  ui.channel = channel.id;
  const isApp = channel.kind === 'app';
  $('#channel-title').textContent = isApp ? channel.name : `# ${channel.name}`;
  $('#tabs').hidden = !isApp;
  if (!isApp) ui.tab = 'messages';
  for (const tab of document.querySelectorAll('#tabs .tab')) {
    tab.classList.toggle('active', /** @type {HTMLElement} */ (tab).dataset.tab === ui.tab);
  }
  const showHome = isApp && ui.tab === 'home';
  $('#home').hidden = !showHome;
  $('#messages').hidden = showHome;
  $('#composer').hidden = showHome;
  /** @type {HTMLTextAreaElement} */ ($('#composer-input')).placeholder = isApp
    ? `Message ${channel.name}`
    : `Message #${channel.name}, or ${s.command} help`;
  if (showHome) renderHome();
  else renderMessages();
  renderModal();
}

function renderSidebar() {
  const s = ui.state;
  if (!s) return;
  const switcher = /** @type {HTMLSelectElement} */ ($('#user-switch'));
  const options = s.users
    .map(
      (/** @type {Json} */ u) =>
        `<option value="${escapeHtml(u.id)}">${escapeHtml(u.display_name)} (${escapeHtml(u.real_name)})</option>`,
    )
    .join('');
  if (switcher.innerHTML !== options) switcher.innerHTML = options;
  switcher.value = ui.me;
  const item = (/** @type {Json} */ c) =>
    `<button type="button" class="nav-item${c.id === ui.channel ? ' active' : ''}" data-channel="${escapeHtml(c.id)}">${c.kind === 'app' ? '◆ ' : '# '}${escapeHtml(c.name)}</button>`;
  $('#channels').innerHTML = s.channels
    .filter((/** @type {Json} */ c) => c.kind === 'channel')
    .map(item)
    .join('');
  $('#apps').innerHTML = s.channels
    .filter((/** @type {Json} */ c) => c.kind !== 'channel')
    .map(item)
    .join('');
}

function messageHtml(/** @type {Json} */ m, /** @type {Json[]} */ replies) {
  const opts = renderOptions();
  const content =
    Array.isArray(m.blocks) && m.blocks.length > 0
      ? renderBlocks(m.blocks, opts)
      : `<div class="msg-text">${mrkdwnToHtml(m.text ?? '', opts)}</div>`;
  const name = authorName(m);
  const tags = `${m.bot ? '<span class="app-tag">APP</span>' : ''}${m.ephemeral ? '<span class="only-you">Only visible to you</span>' : ''}${m.edited ? '<span class="edited">(edited)</span>' : ''}`;
  const isTop = !m.thread_ts || m.thread_ts === m.ts;
  const shortcuts = (ui.state?.shortcuts ?? [])
    .map(
      (/** @type {Json} */ sc) =>
        `<button type="button" class="menu-item" data-shortcut="${escapeHtml(sc.callback_id)}">${escapeHtml(sc.name)}</button>`,
    )
    .join('');
  const menu = `<div class="msg-menu"><button type="button" class="msg-more" aria-label="More actions" title="More actions">⋯</button><div class="menu" hidden>${isTop ? '<button type="button" class="menu-item" data-reply>Reply in thread</button>' : ''}${shortcuts}</div></div>`;
  let thread = '';
  if (isTop && replies.length > 0) {
    const open = ui.expanded.has(m.ts);
    thread = `<button type="button" class="thread-toggle" data-thread="${escapeHtml(m.ts)}">${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}${open ? ' ▾' : ' ▸'}</button>`;
  }
  if (isTop && ui.expanded.has(m.ts)) {
    thread += `<div class="thread" data-thread-of="${escapeHtml(m.ts)}">${replies.map((r) => messageHtml(r, [])).join('')}<form class="thread-composer" data-thread-ts="${escapeHtml(m.ts)}"><input class="thread-input" type="text" placeholder="Reply…" aria-label="Reply in thread"><button type="submit" class="send">Reply</button></form></div>`;
  }
  return `<div class="msg${m.ephemeral ? ' ephemeral' : ''}" data-key="${escapeHtml(m.key)}" data-ts="${escapeHtml(m.ts)}"><div class="avatar${m.bot ? ' bot' : ''}">${escapeHtml(name.slice(0, 1).toUpperCase())}</div><div class="msg-body"><div class="msg-meta"><span class="author">${escapeHtml(name)}</span>${tags}</div><div class="msg-content">${content}</div>${unfurlsHtml(m, opts)}${thread}</div>${menu}</div>`;
}

/** What `chat.unfurl` attached to a message, drawn under it as Slack draws attachments. */
function unfurlsHtml(/** @type {Json} */ m, /** @type {Json} */ opts) {
  if (!m.unfurls || typeof m.unfurls !== 'object') return '';
  return Object.entries(m.unfurls)
    .map(([url, unfurl]) => {
      const body =
        Array.isArray(unfurl?.blocks) && unfurl.blocks.length > 0
          ? renderBlocks(unfurl.blocks, opts)
          : `${unfurl?.title ? `<div class="unfurl-title">${mrkdwnToHtml(String(unfurl.title), opts)}</div>` : ''}<div class="msg-text">${mrkdwnToHtml(String(unfurl?.text ?? ''), opts)}</div>`;
      return `<div class="unfurl" data-url="${escapeHtml(url)}">${body}</div>`;
    })
    .join('');
}

function renderMessages() {
  const s = ui.state;
  if (!s) return;
  const list = $('#messages');
  // Keep what is being typed in thread boxes across re-renders.
  for (const input of list.querySelectorAll('.thread-composer')) {
    const ts = /** @type {HTMLElement} */ (input).dataset.threadTs ?? '';
    ui.drafts.set(ts, /** @type {HTMLInputElement} */ (input.querySelector('.thread-input')).value);
  }
  const focused = document.activeElement?.closest('.thread-composer');
  const focusedTs = focused ? /** @type {HTMLElement} */ (focused).dataset.threadTs : undefined;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;

  const here = s.messages.filter((/** @type {Json} */ m) => m.channel === ui.channel);
  /** @type {Map<string, Json[]>} */
  const replies = new Map();
  for (const m of here) {
    if (m.thread_ts && m.thread_ts !== m.ts)
      replies.set(m.thread_ts, [...(replies.get(m.thread_ts) ?? []), m]);
  }
  const tops = here.filter(
    (/** @type {Json} */ m) =>
      !m.thread_ts || m.thread_ts === m.ts || !here.some((/** @type {Json} */ p) => p.ts === m.thread_ts),
  );
  list.innerHTML =
    tops.length === 0
      ? `<div class="empty">Nothing here yet. Try <code>${escapeHtml(s.command)} help</code>.</div>`
      : tops.map((/** @type {Json} */ m) => messageHtml(m, replies.get(m.ts) ?? [])).join('');

  for (const form of list.querySelectorAll('.thread-composer')) {
    const ts = /** @type {HTMLElement} */ (form).dataset.threadTs ?? '';
    const input = /** @type {HTMLInputElement} */ (form.querySelector('.thread-input'));
    input.value = ui.drafts.get(ts) ?? '';
    if (ts === focusedTs) input.focus();
  }
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function renderHome() {
  const home = ui.state?.home;
  const root = $('#home');
  const signature = home ? JSON.stringify(home.blocks) : '';
  if (signature === ui.homeSignature && root.innerHTML !== '') return;
  ui.homeSignature = signature;
  root.innerHTML = home
    ? `<div class="surface" data-view-id="${escapeHtml(home.id)}">${renderBlocks(home.blocks, renderOptions())}</div>`
    : '<div class="empty">The app has not published a Home tab for you yet.</div>';
}

function renderModal() {
  const modal = ui.state?.modal;
  const root = $('#modal-root');
  if (!modal) {
    root.hidden = true;
    root.innerHTML = '';
    ui.modalSignature = '';
    ui.modalErrors = {};
    return;
  }
  const view = modal.view;
  const signature = `${view.id}:${view.hash ?? ''}:${JSON.stringify(view.blocks)}:${JSON.stringify(ui.modalErrors)}`;
  if (signature === ui.modalSignature) return;
  ui.modalSignature = signature;
  const opts = { ...renderOptions(), errors: ui.modalErrors };
  const submit = view.submit
    ? `<button type="button" class="bk-button bk-primary modal-submit">${textToHtml(view.submit, opts)}</button>`
    : '';
  const general = ui.modalErrors[''] ? `<div class="bk-error">${escapeHtml(ui.modalErrors[''])}</div>` : '';
  root.innerHTML = `<div class="modal" role="dialog" aria-modal="true" data-view-id="${escapeHtml(view.id)}"><div class="modal-header"><h2>${textToHtml(view.title, opts)}</h2><button type="button" class="modal-x" aria-label="Close">×</button></div><div class="modal-body surface" data-view-id="${escapeHtml(view.id)}">${renderBlocks(view.blocks, opts)}${general}</div><div class="modal-footer"><button type="button" class="bk-button modal-close">${view.close ? textToHtml(view.close, opts) : 'Cancel'}</button>${submit}</div></div>`;
  root.hidden = false;
  // As Slack: the element with focus_on_load, else the first text input (never a picker's list).
  /** @type {HTMLElement | null} */ (
    root.querySelector('[data-focus-on-load]') ?? root.querySelector('.bk-input')
  )?.focus();
}

/* ------------------------------------------------------------------ state of inputs */

function selectedOption(/** @type {string} */ value, /** @type {string} */ text) {
  return value ? { text: { type: 'plain_text', text, emoji: true }, value } : null;
}

/** `view.state.values` (or a message's `state.values`) from the inputs inside `root`. */
function stateValues(/** @type {Element} */ root) {
  /** @type {Record<string, Record<string, Json>>} */
  const values = {};
  for (const el of root.querySelectorAll('[data-action-id]')) {
    const e = /** @type {HTMLElement} */ (el);
    const block = e.dataset.blockId ?? '';
    const action = e.dataset.actionId ?? '';
    const type = e.dataset.type;
    /** @type {Json | undefined} */
    let value;
    if (type === 'plain_text_input') {
      const text = /** @type {HTMLInputElement} */ (e).value;
      value = { type, value: text === '' ? null : text };
    } else if (type === 'static_select') {
      const select = /** @type {HTMLSelectElement} */ (e);
      const option = select.selectedOptions[0];
      value = { type, selected_option: selectedOption(select.value, option?.dataset.text ?? '') };
    } else if (type === 'external_select') {
      const hidden = /** @type {HTMLInputElement} */ (e.querySelector('.bk-external-value'));
      value = { type, selected_option: selectedOption(hidden.value, hidden.dataset.text ?? '') };
    }
    if (value) values[block] = { ...values[block], [action]: value };
  }
  return values;
}

/** Where an element lives: a message (key) or a view (id). */
function placeOf(/** @type {Element} */ el) {
  const surface = el.closest('[data-view-id]');
  if (surface) return { viewId: /** @type {HTMLElement} */ (surface).dataset.viewId, root: surface };
  const msg = el.closest('.msg');
  return { key: msg ? /** @type {HTMLElement} */ (msg).dataset.key : undefined, root: msg };
}

async function sendAction(/** @type {Element} */ el, /** @type {Json} */ action) {
  const place = placeOf(el);
  const values = place.root ? stateValues(place.root) : {};
  await api('/api/action', {
    ...(place.viewId ? { viewId: place.viewId } : { key: place.key }),
    action,
    ...(Object.keys(values).length > 0 ? { values } : {}),
  });
}

/* ------------------------------------------------------------------ external selects */

let suggestSeq = 0;
async function suggest(/** @type {HTMLElement} */ box) {
  const input = /** @type {HTMLInputElement} */ (box.querySelector('.bk-external-input'));
  const list = /** @type {HTMLElement} */ (box.querySelector('.bk-external-options'));
  const min = Number(box.dataset.minQuery ?? '3');
  if (input.value.length < min) {
    list.hidden = true;
    return;
  }
  suggestSeq += 1;
  const mine = suggestSeq;
  const place = placeOf(box);
  const answer = await api('/api/suggest', {
    ...(place.viewId ? { viewId: place.viewId } : { key: place.key }),
    action_id: box.dataset.actionId,
    block_id: box.dataset.blockId,
    value: input.value,
    ...(place.root ? { values: stateValues(place.root) } : {}),
  });
  if (mine !== suggestSeq) return;
  /** @type {Json[]} */
  const groups = Array.isArray(answer.option_groups)
    ? answer.option_groups
    : [{ options: answer.options ?? [] }];
  const items = groups
    .map((g) => {
      const label = g.label ? `<li class="group" role="presentation">${escapeHtml(g.label.text)}</li>` : '';
      return (
        label +
        (g.options ?? [])
          .map(
            (/** @type {Json} */ o) =>
              `<li role="option" class="option" data-value="${escapeHtml(o.value)}" data-text="${escapeHtml(o.text?.text ?? '')}">${escapeHtml(o.text?.text ?? '')}</li>`,
          )
          .join('')
      );
    })
    .join('');
  list.innerHTML =
    items || `<li class="none">${answer.ok === false ? 'Could not load options' : 'No results'}</li>`;
  list.hidden = false;
}

async function pickOption(/** @type {HTMLElement} */ li) {
  const box = /** @type {HTMLElement} */ (li.closest('.bk-external'));
  const input = /** @type {HTMLInputElement} */ (box.querySelector('.bk-external-input'));
  const hidden = /** @type {HTMLInputElement} */ (box.querySelector('.bk-external-value'));
  hidden.value = li.dataset.value ?? '';
  hidden.dataset.text = li.dataset.text ?? '';
  input.value = li.dataset.text ?? '';
  /** @type {HTMLElement} */ (box.querySelector('.bk-external-options')).hidden = true;
  // In a message (not an input block), choosing is an action, as in Slack.
  if (!box.closest('.bk-input-block')) {
    await sendAction(box, {
      action_id: box.dataset.actionId,
      block_id: box.dataset.blockId,
      type: 'external_select',
      selected_option: selectedOption(hidden.value, hidden.dataset.text ?? ''),
    });
  }
}

/* ------------------------------------------------------------------ composer and @-mentions */

function mentionQuery(/** @type {HTMLTextAreaElement | HTMLInputElement} */ input) {
  const before = input.value.slice(0, input.selectionStart ?? input.value.length);
  const match = /(^|\s)@([A-Za-z0-9._-]*)$/.exec(before);
  return match ? match[2] : undefined;
}

function showMentions(/** @type {HTMLTextAreaElement} */ input) {
  const list = $('#mention-list');
  const query = mentionQuery(input);
  if (query === undefined) {
    list.hidden = true;
    return;
  }
  const q = query.toLowerCase();
  const users = (ui.state?.users ?? []).filter(
    (/** @type {Json} */ u) =>
      u.name.startsWith(q) ||
      u.display_name.toLowerCase().startsWith(q) ||
      u.real_name.toLowerCase().includes(q),
  );
  list.innerHTML = users
    .map(
      (/** @type {Json} */ u) =>
        `<li role="option" class="option" data-name="${escapeHtml(u.name)}">@${escapeHtml(u.name)} <span class="muted">${escapeHtml(u.real_name)}</span></li>`,
    )
    .join('');
  list.hidden = users.length === 0;
}

function insertMention(/** @type {string} */ name) {
  const input = /** @type {HTMLTextAreaElement} */ ($('#composer-input'));
  const caret = input.selectionStart ?? input.value.length;
  const before = input.value.slice(0, caret).replace(/@([A-Za-z0-9._-]*)$/, `@${name} `);
  input.value = before + input.value.slice(caret);
  input.selectionStart = input.selectionEnd = before.length;
  $('#mention-list').hidden = true;
  input.focus();
}

async function send(/** @type {string} */ text, /** @type {string | undefined} */ threadTs) {
  if (text.trim() === '') return;
  await api('/api/send', { channel: ui.channel, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
}

/* ------------------------------------------------------------------ modal */

async function submitModal() {
  const modal = /** @type {HTMLElement | null} */ (document.querySelector('#modal-root .modal'));
  if (!modal) return;
  const viewId = modal.dataset.viewId;
  const body = /** @type {Element} */ (modal.querySelector('.modal-body'));
  const answer = await api('/api/submit', { viewId, values: stateValues(body) });
  ui.modalErrors = answer.ok === false && answer.errors ? answer.errors : {};
  if (answer.ok === false) {
    ui.modalSignature = '';
    // Keep what was typed: re-render, then put the values back.
    const typed = stateValues(body);
    renderModal();
    restoreValues(/** @type {Element} */ (document.querySelector('#modal-root .modal-body')), typed);
  }
}

function restoreValues(
  /** @type {Element | null} */ root,
  /** @type {Record<string, Record<string, Json>>} */ values,
) {
  if (!root) return;
  for (const el of root.querySelectorAll('[data-action-id]')) {
    const e = /** @type {HTMLElement} */ (el);
    const v = values[e.dataset.blockId ?? '']?.[e.dataset.actionId ?? ''];
    if (!v) continue;
    if (v.type === 'plain_text_input') /** @type {HTMLInputElement} */ (e).value = v.value ?? '';
    else if (v.type === 'static_select')
      /** @type {HTMLSelectElement} */ (e).value = v.selected_option?.value ?? '';
    else if (v.type === 'external_select' && v.selected_option) {
      const hidden = /** @type {HTMLInputElement} */ (e.querySelector('.bk-external-value'));
      hidden.value = v.selected_option.value;
      hidden.dataset.text = v.selected_option.text.text;
      /** @type {HTMLInputElement} */ (e.querySelector('.bk-external-input')).value =
        v.selected_option.text.text;
    }
  }
}

async function closeModal() {
  const modal = /** @type {HTMLElement | null} */ (document.querySelector('#modal-root .modal'));
  if (modal) await api('/api/close', { viewId: modal.dataset.viewId });
}

/* ------------------------------------------------------------------ emulator panel */

const panel = {
  html: '',
  /** what is typed (and who is picked) in each thread's reply form, by thread id */
  /** @type {Map<string, { member: string, text: string }>} */ drafts: new Map(),
  /** @type {Map<string, string>} */ errors: new Map(),
};

/**
 * Who sent a DM thread's messages from Slack: the bot writes them as `*Name* via Slack:` (the
 * newest one wins). Undefined when the thread has none.
 */
function dmSender(/** @type {Json[]} */ messages) {
  for (const m of [...messages].reverse()) {
    if (m.author?.type !== 'app') continue;
    const match = /^\*(.+?)\* via Slack:/.exec(m.content_markdown ?? '');
    if (match) return match[1].replace(/\\(.)/g, '$1');
  }
  return undefined;
}

/** The reply form under a thread: "Reply as [member ▾] [text] [Send]", as one of its people. */
function replyFormHtml(/** @type {Json} */ t, /** @type {Json[]} */ messages, /** @type {Json[]} */ members) {
  const people = (t.member_ids ?? [])
    .map((/** @type {string} */ id) => members.find((/** @type {Json} */ m) => m.id === id))
    .filter((/** @type {Json | undefined} */ m) => m !== undefined && !m.is_deactivated);
  if (people.length === 0) return '';
  const sender = dmSender(messages);
  const preferred =
    people.find((/** @type {Json} */ m) => sender !== undefined && m.user?.display_name !== sender) ??
    people[0];
  const options = people
    .map(
      (/** @type {Json} */ m) =>
        `<option value="${escapeHtml(m.id)}"${m.id === preferred.id ? ' selected' : ''}>${escapeHtml(m.user?.display_name ?? m.id)}</option>`,
    )
    .join('');
  const error = panel.errors.get(t.id);
  return `<form class="emu-reply" data-thread-id="${escapeHtml(t.id)}" autocomplete="off"><label class="emu-reply-as">Reply as <select class="emu-reply-member" aria-label="Reply as">${options}</select></label><div class="emu-reply-row"><input class="emu-reply-input" type="text" placeholder="Message…" aria-label="Message in this thread"><button type="submit" class="send">Send</button></div>${error ? `<div class="emu-reply-error">${escapeHtml(error)}</div>` : ''}</form>`;
}

function renderPanel(/** @type {Json} */ answer) {
  const root = $('#emulator-state');
  if (!answer.available) {
    $('#emulator-note').textContent = 'real API';
    root.innerHTML =
      '<div class="empty">The bot talks to a real collaboration API: its state is not shown here.</div>';
    panel.html = '';
    return;
  }
  $('#emulator-note').textContent = 'emulator';
  const st = answer.state;
  const channelName = (/** @type {string} */ id) =>
    st.channels.find((/** @type {Json} */ c) => c.id === id)?.name ?? id;
  const memberName = (/** @type {string} */ id) =>
    st.members.find((/** @type {Json} */ m) => m.id === id || m.user?.id === id)?.user?.display_name ?? id;
  const posts = [...st.posts]
    .reverse()
    .map((/** @type {Json} */ p) => {
      const comments = st.comments.filter((/** @type {Json} */ c) => c.post_id === p.id);
      const status = p.resolution
        ? `<span class="badge resolved">Resolved</span> <span class="muted">by ${escapeHtml(p.resolution.resolved_by?.name ?? '?')}</span>`
        : '<span class="badge open">Open</span>';
      return `<li class="emu-post" data-post-id="${escapeHtml(p.id)}"><div class="emu-title">${escapeHtml(p.title ?? p.content_markdown.slice(0, 60))}</div><div class="muted">#${escapeHtml(channelName(p.channel_id))} · ${escapeHtml(p.author?.name ?? '')} · <code>${escapeHtml(p.id)}</code></div><div>${status}</div>${
        comments.length > 0
          ? `<ul class="emu-comments">${comments.map((/** @type {Json} */ c) => `<li class="emu-comment"><b>${escapeHtml(c.author?.name ?? '')}</b>: ${escapeHtml(c.content_markdown)}</li>`).join('')}</ul>`
          : ''
      }</li>`;
    })
    .join('');
  const threads = [...st.threads]
    .reverse()
    .map((/** @type {Json} */ t) => {
      const messages = st.messages.filter((/** @type {Json} */ m) => m.thread_id === t.id);
      const who = (t.member_ids ?? []).map(memberName).join(', ');
      return `<li class="emu-thread" data-thread-id="${escapeHtml(t.id)}"><div class="emu-title">${escapeHtml(t.title ?? who)}</div><div class="muted">${escapeHtml(who)} · <code>${escapeHtml(t.id)}</code></div><ul class="emu-messages">${messages.map((/** @type {Json} */ m) => `<li class="emu-message"><b>${escapeHtml(m.author?.name ?? '')}</b>: ${escapeHtml(m.content_markdown)}</li>`).join('')}</ul>${replyFormHtml(t, messages, st.members)}</li>`;
    })
    .join('');
  const html = `<h3>Posts <span class="muted">(${st.posts.length})</span></h3><ul class="emu-list">${posts}</ul><h3>Threads <span class="muted">(${st.threads.length})</span></h3><ul class="emu-list">${threads}</ul>`;
  // The bot polls: most refreshes change nothing, and must not disturb what is being typed.
  if (html === panel.html) return;

  // Keep what is typed and picked in the reply forms, and where the focus is, across re-renders.
  for (const form of root.querySelectorAll('.emu-reply')) {
    const id = /** @type {HTMLElement} */ (form).dataset.threadId ?? '';
    panel.drafts.set(id, {
      member: /** @type {HTMLSelectElement} */ (form.querySelector('.emu-reply-member')).value,
      text: /** @type {HTMLInputElement} */ (form.querySelector('.emu-reply-input')).value,
    });
  }
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusedForm = active?.closest('.emu-reply');
  const focused = focusedForm
    ? {
        id: /** @type {HTMLElement} */ (focusedForm).dataset.threadId,
        field: active?.matches('.emu-reply-member') ? '.emu-reply-member' : '.emu-reply-input',
        caret: /** @type {HTMLInputElement} */ (active).selectionStart ?? null,
      }
    : undefined;
  const scrolled = /** @type {HTMLElement} */ (root.parentElement).scrollTop;

  root.innerHTML = html;
  panel.html = html;

  for (const form of root.querySelectorAll('.emu-reply')) {
    const id = /** @type {HTMLElement} */ (form).dataset.threadId ?? '';
    const select = /** @type {HTMLSelectElement} */ (form.querySelector('.emu-reply-member'));
    const input = /** @type {HTMLInputElement} */ (form.querySelector('.emu-reply-input'));
    const draft = panel.drafts.get(id);
    if (draft) {
      if ([...select.options].some((o) => o.value === draft.member)) select.value = draft.member;
      input.value = draft.text;
    }
    if (focused?.id === id) {
      const el = /** @type {HTMLInputElement} */ (form.querySelector(focused.field));
      el.focus();
      if (focused.caret !== null && el === input) input.setSelectionRange(focused.caret, focused.caret);
    }
  }
  /** @type {HTMLElement} */ (root.parentElement).scrollTop = scrolled;
}

async function sendReply(/** @type {HTMLFormElement} */ form) {
  const threadId = form.dataset.threadId ?? '';
  const select = /** @type {HTMLSelectElement} */ (form.querySelector('.emu-reply-member'));
  const input = /** @type {HTMLInputElement} */ (form.querySelector('.emu-reply-input'));
  const text = input.value;
  if (text.trim() === '') return;
  const member = select.value;
  input.value = '';
  panel.drafts.set(threadId, { member, text: '' });
  const hadError = panel.errors.delete(threadId);
  const answer = await api('/api/emulator/reply', { threadId, member, text });
  if (answer.ok === false || answer.ok === undefined) {
    panel.errors.set(threadId, String(answer.error ?? 'The message was not sent.'));
    // Give the text back, unless something new was typed meanwhile.
    const current = /** @type {HTMLInputElement | null} */ (
      document.querySelector(`.emu-reply[data-thread-id="${CSS.escape(threadId)}"] .emu-reply-input`)
    );
    if (current && current.value === '') current.value = text;
  } else if (!hadError) {
    return;
  }
  // The error line changed: draw it (the panel skips a refresh that changes nothing).
  panel.html = '';
  await refreshPanel();
}

/* ------------------------------------------------------------------ events */

function hideMenus() {
  for (const menu of document.querySelectorAll('.msg-menu .menu, #shortcuts-menu')) {
    /** @type {HTMLElement} */ (menu).hidden = true;
  }
}

document.addEventListener('click', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const channel = target.closest('[data-channel]');
  if (channel) {
    ui.channel = /** @type {HTMLElement} */ (channel).dataset.channel ?? ui.channel;
    const isApp = ui.state?.channels.find((/** @type {Json} */ c) => c.id === ui.channel)?.kind === 'app';
    if (isApp) {
      ui.tab = 'home';
      void api('/api/home', {});
    }
    render();
    return;
  }
  const tab = target.closest('#tabs .tab');
  if (tab) {
    ui.tab = /** @type {HTMLElement} */ (tab).dataset.tab ?? 'messages';
    if (ui.tab === 'home') void api('/api/home', {});
    render();
    return;
  }
  if (target.closest('#shortcuts-button')) {
    const menu = $('#shortcuts-menu');
    const wasHidden = menu.hidden;
    hideMenus();
    menu.innerHTML = (ui.state?.globalShortcuts ?? [])
      .map(
        (/** @type {Json} */ sc) =>
          `<button type="button" class="menu-item" data-global-shortcut="${escapeHtml(sc.callback_id)}">${escapeHtml(sc.name)}</button>`,
      )
      .join('');
    menu.hidden = !wasHidden;
    return;
  }
  const more = target.closest('.msg-more');
  if (more) {
    const menu = /** @type {HTMLElement} */ (more.nextElementSibling);
    const wasHidden = menu.hidden;
    hideMenus();
    menu.hidden = !wasHidden;
    return;
  }
  hideMenus();
  const reply = target.closest('[data-reply]');
  if (reply) {
    const ts = /** @type {HTMLElement} */ (reply.closest('.msg')).dataset.ts ?? '';
    ui.expanded.add(ts);
    renderMessages();
    /** @type {HTMLInputElement | null} */ (
      document.querySelector(`.thread-composer[data-thread-ts="${CSS.escape(ts)}"] .thread-input`)
    )?.focus();
    return;
  }
  const globalShortcut = target.closest('[data-global-shortcut]');
  if (globalShortcut) {
    void api('/api/global-shortcut', {
      callback_id: /** @type {HTMLElement} */ (globalShortcut).dataset.globalShortcut,
    });
    return;
  }
  const shortcut = target.closest('[data-shortcut]');
  if (shortcut) {
    const key = /** @type {HTMLElement} */ (shortcut.closest('.msg')).dataset.key;
    void api('/api/shortcut', { key, callback_id: /** @type {HTMLElement} */ (shortcut).dataset.shortcut });
    return;
  }
  const toggle = target.closest('.thread-toggle');
  if (toggle) {
    const ts = /** @type {HTMLElement} */ (toggle).dataset.thread ?? '';
    if (ui.expanded.has(ts)) ui.expanded.delete(ts);
    else ui.expanded.add(ts);
    renderMessages();
    return;
  }
  const option = target.closest('.bk-external-options .option');
  if (option) {
    void pickOption(/** @type {HTMLElement} */ (option));
    return;
  }
  const mention = target.closest('#mention-list .option');
  if (mention) {
    insertMention(/** @type {HTMLElement} */ (mention).dataset.name ?? '');
    return;
  }
  if (target.closest('.modal-submit')) {
    void submitModal();
    return;
  }
  if (target.closest('.modal-close, .modal-x')) {
    void closeModal();
    return;
  }
  const button = /** @type {HTMLElement | null} */ (target.closest('.bk-button[data-action-id]'));
  if (button) {
    if (button.dataset.url) window.open(button.dataset.url, '_blank', 'noopener');
    void sendAction(button, {
      action_id: button.dataset.actionId,
      block_id: button.dataset.blockId,
      type: 'button',
      text: { type: 'plain_text', text: button.textContent ?? '', emoji: true },
      ...(button.dataset.value ? { value: button.dataset.value } : {}),
    });
  }
  for (const list of document.querySelectorAll('.bk-external-options')) {
    if (!list.parentElement?.contains(target)) /** @type {HTMLElement} */ (list).hidden = true;
  }
});

document.addEventListener('change', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.id === 'user-switch') {
    ui.me = /** @type {HTMLSelectElement} */ (target).value;
    localStorage.setItem('console.me', ui.me);
    ui.modalSignature = '';
    ui.homeSignature = '';
    ui.expanded.clear();
    void refresh();
    return;
  }
  const select = /** @type {HTMLSelectElement} */ (target);
  if (select.matches('select.bk-select') && !select.closest('.bk-input-block')) {
    const option = select.selectedOptions[0];
    void sendAction(select, {
      action_id: select.dataset.actionId,
      block_id: select.dataset.blockId,
      type: select.dataset.type,
      selected_option: selectedOption(select.value, option?.dataset.text ?? ''),
    });
  }
});

document.addEventListener('input', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.matches('.bk-external-input')) {
    const hidden = /** @type {HTMLInputElement} */ (
      target.parentElement?.querySelector('.bk-external-value')
    );
    hidden.value = '';
    void suggest(/** @type {HTMLElement} */ (target.closest('.bk-external')));
  } else if (target.id === 'composer-input') {
    showMentions(/** @type {HTMLTextAreaElement} */ (target));
  }
});

document.addEventListener('focusin', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.matches('.bk-external-input'))
    void suggest(/** @type {HTMLElement} */ (target.closest('.bk-external')));
});

$('#composer-input').addEventListener('keydown', (event) => {
  const list = $('#mention-list');
  if (!list.hidden && (event.key === 'Enter' || event.key === 'Tab')) {
    const first = /** @type {HTMLElement | null} */ (list.querySelector('.option'));
    if (first) {
      event.preventDefault();
      insertMention(first.dataset.name ?? '');
      return;
    }
  }
  if (event.key === 'Escape') list.hidden = true;
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    /** @type {HTMLFormElement} */ ($('#composer')).requestSubmit();
  }
});

$('#composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = /** @type {HTMLTextAreaElement} */ ($('#composer-input'));
  const text = input.value;
  input.value = '';
  $('#mention-list').hidden = true;
  void send(text, undefined);
});

$('#messages').addEventListener('submit', (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches('.thread-composer')) return;
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (form.querySelector('.thread-input'));
  const ts = form.dataset.threadTs ?? '';
  const text = input.value;
  input.value = '';
  ui.drafts.delete(ts);
  void send(text, ts);
});

$('#emulator-state').addEventListener('submit', (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches('.emu-reply')) return;
  event.preventDefault();
  void sendReply(form);
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !$('#modal-root').hidden) void closeModal();
});

/* ------------------------------------------------------------------ start */

async function loadEmoji() {
  const res = await fetch('/emoji.json').catch(() => undefined);
  if (!res?.ok) return;
  ui.emoji = await res.json();
  ui.modalSignature = '';
  ui.homeSignature = '';
  render();
}

async function start() {
  // An unknown user (or none) plays the first one: the server answers with who that is.
  listen();
  // The emoji data arrives beside the first state; the page redraws with it, never waits for it.
  void loadEmoji();
  await refresh();
  await refreshPanel();
}

void start();
