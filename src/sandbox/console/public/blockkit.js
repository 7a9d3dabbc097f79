// Block Kit → HTML for the sandbox console. Pure functions, no DOM: the browser and vitest both
// import this module. Everything that comes from an app or a person is escaped; interactive
// elements carry data-* attributes the page reads back to build Slack's interaction payloads.

/**
 * @typedef {Record<string, any>} Json
 * @typedef {{ users?: Record<string, string>, channels?: Record<string, string>, timeZone?: string, emoji?: Record<string, string>, errors?: Record<string, string> }} RenderOptions
 */

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[/** @type {keyof typeof ENTITIES} */ (c)]);
}

/** Slack escapes `&`, `<`, `>` in message text; undo that before escaping for HTML. */
function unescapeSlack(/** @type {string} */ text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * `:shortcode:` → emoji, from the map the page is given (Slack's shortcodes, served by the
 * console from emojibase-data); an unknown code stays as text, as in Slack.
 */
function emojify(/** @type {string} */ text, /** @type {RenderOptions} */ options, asHtml = true) {
  const map = options.emoji;
  if (!map) return text;
  return text.replace(/:([a-z0-9_+'-]+)(?:::(skin-tone-[2-6]))?:/g, (whole, name) => {
    const emoji = map[name];
    if (!emoji) return whole;
    return asHtml ? `<span class="bk-emoji" title=":${escapeHtml(name)}:">${emoji}</span>` : emoji;
  });
}

/** Only links a person can follow safely. */
function safeUrl(/** @type {string} */ url) {
  return /^(https?:|mailto:)/i.test(url.trim()) ? url.trim() : undefined;
}

function link(/** @type {string} */ url, /** @type {string} */ labelHtml) {
  const safe = safeUrl(url);
  if (!safe) return labelHtml;
  return `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener noreferrer">${labelHtml}</a>`;
}

const DATE_STYLES = /** @type {Record<string, Intl.DateTimeFormatOptions>} */ ({
  date_num: { year: 'numeric', month: '2-digit', day: '2-digit' },
  date: { year: 'numeric', month: 'long', day: 'numeric' },
  date_short: { year: 'numeric', month: 'short', day: 'numeric' },
  date_long: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  date_pretty: { year: 'numeric', month: 'long', day: 'numeric' },
  date_short_pretty: { year: 'numeric', month: 'short', day: 'numeric' },
  date_long_pretty: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  time: { hour: 'numeric', minute: '2-digit' },
  time_secs: { hour: 'numeric', minute: '2-digit', second: '2-digit' },
});

/** `<!date^1700000000^{date_short} at {time}^optional_link|fallback>` */
function renderDate(
  /** @type {string} */ body,
  /** @type {string | undefined} */ fallback,
  /** @type {RenderOptions} */ options,
) {
  const [, seconds = '', format = '', url] = body.split('^');
  const ms = Number(seconds) * 1000;
  if (!Number.isFinite(ms) || seconds === '') return escapeHtml(fallback ?? '');
  const date = new Date(ms);
  const text = format.replace(/\{([a-z_]+)\}/g, (whole, token) => {
    const style = DATE_STYLES[token];
    if (!style) return whole;
    return new Intl.DateTimeFormat('en-US', { ...style, timeZone: options.timeZone }).format(date);
  });
  const html = `<time datetime="${escapeHtml(date.toISOString())}" title="${escapeHtml(fallback ?? '')}">${escapeHtml(text)}</time>`;
  return url ? link(url, html) : html;
}

/** One `<…>` of Slack markup as HTML; undefined when it is not markup (then it is plain text). */
function renderAngle(/** @type {string} */ markup, /** @type {RenderOptions} */ options) {
  const inner = unescapeSlack(markup);
  const bar = inner.indexOf('|');
  const head = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : inner.slice(bar + 1);
  if (head.startsWith('@')) {
    const id = head.slice(1);
    const name = options.users?.[id] ?? label ?? id;
    return `<span class="bk-mention" data-user="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  }
  if (head.startsWith('#')) {
    const id = head.slice(1);
    const name = options.channels?.[id] ?? label ?? id;
    return `<span class="bk-mention bk-channel">#${escapeHtml(name)}</span>`;
  }
  if (head.startsWith('!date^')) return renderDate(head, label, options);
  if (head.startsWith('!subteam^')) return `<span class="bk-mention">${escapeHtml(label ?? '@team')}</span>`;
  if (head === '!here' || head === '!channel' || head === '!everyone') {
    return `<span class="bk-mention bk-broadcast">@${escapeHtml(head.slice(1))}</span>`;
  }
  if (/^(https?:\/\/|mailto:)/i.test(head)) {
    const text = label ?? head.replace(/^mailto:/i, '');
    return link(head, escapeHtml(text));
  }
  return undefined;
}

const SLOT = '\u0000';

/**
 * Slack mrkdwn as HTML: *bold*, _italic_, ~strike~, `code`, ```blocks```, > quotes, <url|label>,
 * <@user>, <#channel>, <!date^…|fallback>, :emoji:, newlines.
 * @param {string} text
 * @param {RenderOptions} [options]
 */
export function mrkdwnToHtml(text, options = {}) {
  /** @type {string[]} */
  const slots = [];
  const keep = (/** @type {string} */ html) => {
    slots.push(html);
    return `${SLOT}${slots.length - 1}${SLOT}`;
  };
  let source = String(text ?? '').replaceAll(SLOT, '');
  // Code first: nothing inside is formatted.
  source = source.replace(/```\n?([\s\S]*?)```/g, (_, code) =>
    keep(`<pre class="bk-pre">${escapeHtml(unescapeSlack(code))}</pre>`),
  );
  source = source.replace(/`([^`\n]+)`/g, (_, code) =>
    keep(`<code>${escapeHtml(unescapeSlack(code))}</code>`),
  );
  // Slack markup; anything else between < and > is text (and gets escaped below).
  source = source.replace(/<([^<>\n]+)>/g, (whole, inner) => {
    const html = renderAngle(inner, options);
    return html === undefined ? whole : keep(html);
  });
  let html = escapeHtml(unescapeSlack(source));
  const edge = `(^|[\\s(\\[{"'“>.,;:!?-]|${SLOT})`;
  const end = `(?=$|[\\s)\\]}"'”<.,;:!?-]|${SLOT})`;
  html = html.replace(new RegExp(`${edge}\\*([^*\\n]*[^*\\s])\\*${end}`, 'g'), '$1<strong>$2</strong>');
  html = html.replace(new RegExp(`${edge}_([^_\\n]*[^_\\s])_${end}`, 'g'), '$1<em>$2</em>');
  html = html.replace(new RegExp(`${edge}~([^~\\n]*[^~\\s])~${end}`, 'g'), '$1<del>$2</del>');
  html = emojify(html, options);
  // Quotes: lines that start with ">" (escaped by now), with or without a space, as Slack reads them.
  html = html
    .split('\n')
    .map((line) =>
      line.startsWith('&gt;') ? `<blockquote>${line.replace(/^&gt; ?/, '')}</blockquote>` : line,
    )
    .join('\n')
    .replace(/<\/blockquote>\n<blockquote>/g, '<br>');
  html = html.replace(/\n/g, '<br>');
  return html.replace(new RegExp(`${SLOT}(\\d+)${SLOT}`, 'g'), (_, i) => slots[Number(i)] ?? '');
}

/**
 * A text object (`plain_text` or `mrkdwn`) as HTML.
 * @param {Json | undefined} text
 * @param {RenderOptions} options
 */
export function textToHtml(text, options = {}) {
  if (!text || typeof text !== 'object') return '';
  if (text.type === 'mrkdwn') return mrkdwnToHtml(String(text.text ?? ''), options);
  const plain = escapeHtml(text.text ?? '');
  return text.emoji === false ? plain : emojify(plain, options, false);
}

function plainText(/** @type {Json | undefined} */ text) {
  return text && typeof text === 'object' ? String(text.text ?? '') : '';
}

/** data-* attributes every interactive element carries. */
function dataAttrs(/** @type {Json} */ element, /** @type {string} */ blockId) {
  const focus = element.focus_on_load === true ? ' data-focus-on-load' : '';
  return `data-action-id="${escapeHtml(element.action_id ?? '')}" data-block-id="${escapeHtml(blockId)}" data-type="${escapeHtml(element.type)}"${focus}`;
}

function optionAttrs(/** @type {Json} */ option) {
  return `value="${escapeHtml(option.value ?? '')}" data-text="${escapeHtml(plainText(option.text))}"`;
}

/** @param {Json} element @param {string} blockId @param {RenderOptions} options */
function renderSelect(element, blockId, options) {
  const initial = element.initial_option?.value;
  const option = (/** @type {Json} */ o) =>
    `<option ${optionAttrs(o)}${o.value === initial ? ' selected' : ''}>${escapeHtml(plainText(o.text))}</option>`;
  const body = Array.isArray(element.option_groups)
    ? element.option_groups
        .map(
          (/** @type {Json} */ g) =>
            `<optgroup label="${escapeHtml(plainText(g.label))}">${(g.options ?? []).map(option).join('')}</optgroup>`,
        )
        .join('')
    : (element.options ?? []).map(option).join('');
  const placeholder = escapeHtml(plainText(element.placeholder) || 'Select an item');
  void options;
  return `<select class="bk-select" ${dataAttrs(element, blockId)}><option value="" disabled${initial === undefined ? ' selected' : ''}>${placeholder}</option>${body}</select>`;
}

/** @param {Json} element @param {string} blockId */
function renderExternalSelect(element, blockId) {
  const initial = element.initial_option;
  const placeholder = escapeHtml(plainText(element.placeholder) || 'Select an item');
  return (
    `<div class="bk-external" ${dataAttrs(element, blockId)} data-min-query="${escapeHtml(element.min_query_length ?? 3)}">` +
    `<input class="bk-external-input" type="text" autocomplete="off" placeholder="${placeholder}" value="${escapeHtml(initial ? plainText(initial.text) : '')}">` +
    `<input class="bk-external-value" type="hidden" value="${escapeHtml(initial?.value ?? '')}" data-text="${escapeHtml(initial ? plainText(initial.text) : '')}">` +
    '<ul class="bk-external-options" role="listbox" hidden></ul></div>'
  );
}

/** An interactive or display element (accessory, actions, input, context). */
function renderElement(
  /** @type {Json} */ element,
  /** @type {string} */ blockId,
  /** @type {RenderOptions} */ options,
) {
  if (!element || typeof element !== 'object') return '';
  switch (element.type) {
    case 'button': {
      const style = element.style === 'primary' || element.style === 'danger' ? ` bk-${element.style}` : '';
      const url =
        element.url && safeUrl(element.url) ? ` data-url="${escapeHtml(safeUrl(element.url))}"` : '';
      return `<button type="button" class="bk-button${style}" ${dataAttrs(element, blockId)} data-value="${escapeHtml(element.value ?? '')}"${url}>${textToHtml(element.text, options)}</button>`;
    }
    case 'static_select':
    case 'overflow':
      return renderSelect(
        element.type === 'overflow'
          ? { ...element, placeholder: { type: 'plain_text', text: '⋯' } }
          : element,
        blockId,
        options,
      );
    case 'external_select':
      return renderExternalSelect(element, blockId);
    case 'plain_text_input': {
      const placeholder = escapeHtml(plainText(element.placeholder));
      const limits = `${element.max_length ? ` maxlength="${escapeHtml(element.max_length)}"` : ''}`;
      if (element.multiline) {
        return `<textarea class="bk-input" rows="4" ${dataAttrs(element, blockId)} placeholder="${placeholder}"${limits}>${escapeHtml(element.initial_value ?? '')}</textarea>`;
      }
      return `<input class="bk-input" type="text" ${dataAttrs(element, blockId)} placeholder="${placeholder}"${limits} value="${escapeHtml(element.initial_value ?? '')}">`;
    }
    case 'image':
      return imageLink(element.image_url, element.alt_text);
    case 'plain_text':
    case 'mrkdwn':
      return `<span class="bk-context-text">${textToHtml(element, options)}</span>`;
    default:
      return `<span class="bk-unsupported">[${escapeHtml(element.type)}]</span>`;
  }
}

function imageLink(/** @type {unknown} */ url, /** @type {unknown} */ alt) {
  const label = `🖼 ${escapeHtml(alt || 'image')}`;
  return `<span class="bk-image">${link(String(url ?? ''), label)}</span>`;
}

/** @param {Json} block @param {RenderOptions} options */
function renderBlock(block, options) {
  if (!block || typeof block !== 'object') return '';
  const blockId = String(block.block_id ?? '');
  const id = escapeHtml(blockId);
  switch (block.type) {
    case 'header':
      return `<div class="bk-block bk-header" data-block-id="${id}">${textToHtml(block.text, options)}</div>`;
    case 'divider':
      return '<hr class="bk-block bk-divider">';
    case 'section': {
      const text = block.text ? `<div class="bk-section-text">${textToHtml(block.text, options)}</div>` : '';
      const fields = Array.isArray(block.fields)
        ? `<div class="bk-fields">${block.fields.map((/** @type {Json} */ f) => `<div class="bk-field">${textToHtml(f, options)}</div>`).join('')}</div>`
        : '';
      const accessory = block.accessory
        ? `<div class="bk-accessory">${renderElement(block.accessory, blockId, options)}</div>`
        : '';
      return `<div class="bk-block bk-section" data-block-id="${id}"><div class="bk-section-body">${text}${fields}</div>${accessory}</div>`;
    }
    case 'context':
      return `<div class="bk-block bk-context" data-block-id="${id}">${(block.elements ?? []).map((/** @type {Json} */ e) => renderElement(e, blockId, options)).join('')}</div>`;
    case 'actions':
      return `<div class="bk-block bk-actions" data-block-id="${id}">${(block.elements ?? []).map((/** @type {Json} */ e) => renderElement(e, blockId, options)).join('')}</div>`;
    case 'image': {
      const title = block.title
        ? `<div class="bk-image-title">${textToHtml(block.title, options)}</div>`
        : '';
      return `<div class="bk-block bk-image-block" data-block-id="${id}">${title}${imageLink(block.image_url, block.alt_text)}</div>`;
    }
    case 'input': {
      const optional = block.optional ? ' <span class="bk-optional">(optional)</span>' : '';
      const hint = block.hint ? `<div class="bk-hint">${textToHtml(block.hint, options)}</div>` : '';
      const error = options.errors?.[blockId];
      return (
        `<div class="bk-block bk-input-block${error ? ' bk-has-error' : ''}" data-block-id="${id}">` +
        `<label class="bk-label">${escapeHtml(plainText(block.label))}${optional}</label>` +
        renderElement(block.element, blockId, options) +
        hint +
        `<div class="bk-error" data-error-for="${id}"${error ? '' : ' hidden'}>${escapeHtml(error ?? '')}</div></div>`
      );
    }
    case 'rich_text':
      return `<div class="bk-block bk-rich-text" data-block-id="${id}">${escapeHtml(richTextPlain(block))}</div>`;
    default:
      return `<div class="bk-block bk-unsupported">[${escapeHtml(block.type)} block]</div>`;
  }
}

/** The words of a rich_text block, without its styling. */
function richTextPlain(/** @type {Json} */ node) {
  if (!node || typeof node !== 'object') return '';
  if (typeof node.text === 'string') return node.text;
  if (node.type === 'user') return `@${node.user_id}`;
  if (node.type === 'link') return node.text ?? node.url ?? '';
  return Array.isArray(node.elements) ? node.elements.map(richTextPlain).join('') : '';
}

/**
 * Blocks as HTML.
 * @param {unknown} blocks
 * @param {RenderOptions} [options]
 */
export function renderBlocks(blocks, options = {}) {
  if (!Array.isArray(blocks)) return '';
  return blocks.map((block) => renderBlock(block, options)).join('');
}
