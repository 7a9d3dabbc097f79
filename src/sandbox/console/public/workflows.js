// The Workflows panel: the app's Workflow Builder steps, run as Slack runs them (a signed
// function_executed), with the outputs or the error the app completed them with.
// Kept apart from app.js: it only adds the sidebar button and its own overlay.

/** @typedef {Record<string, any>} Json */

const STYLE = `
.wf-panel { width: min(760px, 94vw); max-height: 90vh; display: flex; flex-direction: column; }
.wf-panel .modal-body { overflow: auto; }
.wf-steps { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 12px; }
.wf-step.active { background: #1264a3; color: #fff; border-color: #1264a3; }
.wf-form label { display: block; margin: 8px 0 2px; font-weight: 600; }
.wf-form input, .wf-form textarea { width: 100%; box-sizing: border-box; padding: 6px 8px; font: inherit; border: 1px solid #bbb; border-radius: 4px; }
.wf-hint { color: #616061; font-size: 12px; font-weight: 400; }
.wf-runs { list-style: none; padding: 0; margin: 14px 0 0; }
.wf-runs li { border-top: 1px solid #e8e8e8; padding: 8px 0; }
.wf-ok { color: #007a5a; font-weight: 600; }
.wf-err { color: #e01e5a; font-weight: 600; }
.wf-wait { color: #616061; font-weight: 600; }
.wf-runs code, .wf-runs pre { font-size: 12px; background: #f4f4f4; border-radius: 3px; padding: 1px 4px; }
.wf-runs pre { white-space: pre-wrap; margin: 4px 0 0; padding: 6px; }
`;

const esc = (/** @type {unknown} */ text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** @type {{ open: boolean, step: string, data: Json | null }} */
const wf = { open: false, step: '', data: null };

async function load() {
  const res = await fetch('/api/workflows');
  wf.data = /** @type {Json} */ (await res.json());
  if (!wf.step) wf.step = wf.data.steps[0]?.callbackId ?? '';
}

function inputField(/** @type {Json} */ p) {
  const hint = `${p.array ? 'Slack user ids, comma separated (U0ADA, U0GRACE). ' : ''}${p.required ? '' : '(optional) '}${p.description}`;
  const tag =
    p.name === 'content' || p.name === 'text'
      ? `<textarea name="${esc(p.name)}" rows="3"></textarea>`
      : `<input name="${esc(p.name)}" ${p.required ? 'required' : ''}>`;
  return `<label>${esc(p.title)} <span class="wf-hint">${esc(hint)}</span>${tag}</label>`;
}

function runLine(/** @type {Json} */ run) {
  const outcome = run.outcome
    ? run.outcome.ok
      ? `<span class="wf-ok">completeSuccess</span><pre>${esc(JSON.stringify(run.outcome.outputs, null, 2))}</pre>`
      : `<span class="wf-err">completeError</span>: ${esc(run.outcome.error)}`
    : `<span class="wf-wait">${run.status === 200 ? 'running — no completion yet' : `the bot answered HTTP ${run.status}`}</span>`;
  return `<li><strong>${esc(run.title)}</strong> <code>${esc(run.executionId)}</code> · inputs <code>${esc(JSON.stringify(run.inputs))}</code><br>${outcome}</li>`;
}

function render() {
  const root = /** @type {HTMLElement} */ (document.getElementById('workflows-root'));
  root.hidden = !wf.open;
  if (!wf.open || !wf.data) return;
  const step = wf.data.steps.find((/** @type {Json} */ s) => s.callbackId === wf.step);
  const kept = new FormData(
    /** @type {HTMLFormElement} */ (root.querySelector('.wf-form') ?? document.createElement('form')),
  );
  root.innerHTML = `<div class="modal wf-panel" role="dialog" aria-modal="true" aria-label="Workflows">
    <div class="modal-header"><h2>Workflow steps</h2><button type="button" class="bk-button wf-close" aria-label="Close">×</button></div>
    <div class="modal-body">
      <p class="wf-hint">The app's custom steps, as Workflow Builder shows them. Running one sends <code>function_executed</code>, signed, as Slack does; the app answers with <code>functions.completeSuccess</code> or <code>functions.completeError</code>.</p>
      <div class="wf-steps">${wf.data.steps
        .map(
          (/** @type {Json} */ s) =>
            `<button type="button" class="bk-button wf-step${s.callbackId === wf.step ? ' active' : ''}" data-step="${esc(s.callbackId)}">${esc(s.title)}</button>`,
        )
        .join('')}</div>
      ${step ? `<form class="wf-form" data-step="${esc(step.callbackId)}"><div class="wf-hint">${esc(step.description)} → ${step.outputs.map((/** @type {Json} */ o) => esc(o.title)).join(', ')}</div>${step.inputs.map(inputField).join('')}<div style="margin-top:10px"><button type="submit" class="bk-button bk-primary">Run step</button></div></form>` : ''}
      <ul class="wf-runs">${wf.data.runs.map(runLine).join('') || '<li class="wf-hint">No step run yet.</li>'}</ul>
    </div>
  </div>`;
  for (const [name, value] of kept) {
    const field = /** @type {HTMLInputElement | null} */ (root.querySelector(`.wf-form [name="${name}"]`));
    if (field) field.value = String(value);
  }
}

async function refresh() {
  if (!wf.open) return;
  await load();
  render();
}

function start() {
  const style = document.createElement('style');
  style.textContent = STYLE;
  document.head.append(style);
  const root = /** @type {HTMLElement} */ (document.getElementById('workflows-root'));
  document.getElementById('workflows-open')?.addEventListener('click', async () => {
    wf.open = true;
    await refresh();
  });
  root.addEventListener('click', async (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    event.stopPropagation();
    if (target.closest('.wf-close') || target === root) {
      wf.open = false;
      render();
      return;
    }
    const pick = /** @type {HTMLElement | null} */ (target.closest('[data-step].wf-step'));
    if (pick) {
      wf.step = pick.dataset.step ?? wf.step;
      root.querySelector('.wf-form')?.remove();
      render();
    }
  });
  root.addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const step = wf.data?.steps.find((/** @type {Json} */ s) => s.callbackId === form.dataset.step);
    if (!step) return;
    /** @type {Json} */
    const inputs = {};
    for (const p of step.inputs) {
      const raw = String(new FormData(form).get(p.name) ?? '').trim();
      if (raw === '') continue;
      inputs[p.name] = p.array ? raw.split(/[\s,]+/).filter(Boolean) : raw;
    }
    await fetch('/api/workflows/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callbackId: step.callbackId, inputs }),
    });
    form.reset();
    await refresh();
  });
  // Completions arrive as Slack calls: the console's change stream says when to look again.
  new EventSource('/api/events').addEventListener('change', () => void refresh());
}

start();
