/**
 * Checks Block Kit payloads against Slack's limits, as Slack would refuse them: text lengths by
 * where the text sits, block and element counts, button values and urls, option values, and that
 * every action id is one of ours (src/render/ids.ts). Throws an Error naming the path of the
 * first few problems. Reused by every render test.
 */
import { ACTIONS, INPUTS } from '../../src/render/ids.ts';
import { LIMITS } from '../../src/render/limits.ts';

type Json = Record<string, unknown>;

const KNOWN_ACTION_IDS = new Set<string>([
  ...Object.values(ACTIONS),
  ...Object.values(INPUTS).map((input) => input.action),
]);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

class Checker {
  readonly problems: string[] = [];
  readonly actionIds = new Set<string>();
  readonly blockIds = new Set<string>();

  fail(path: string, message: string) {
    this.problems.push(`${path}: ${message}`);
  }

  text(
    value: unknown,
    path: string,
    max: number,
    kinds: Array<'plain_text' | 'mrkdwn'> = ['plain_text', 'mrkdwn'],
  ) {
    if (!isObject(value)) return this.fail(path, 'text object missing');
    if (typeof value.type !== 'string' || !kinds.includes(value.type as 'plain_text' | 'mrkdwn')) {
      return this.fail(path, `text type ${String(value.type)} not one of ${kinds.join(', ')}`);
    }
    if (typeof value.text !== 'string') return this.fail(path, 'text is not a string');
    if (value.text.length === 0) this.fail(path, 'empty text');
    if (value.text.length > max) this.fail(path, `text is ${value.text.length} characters, limit ${max}`);
    if (value.type === 'mrkdwn') this.mrkdwn(value.text, path);
  }

  /** Nothing in mrkdwn may ping or mention: only our own `<url|…>` links, `<!date^…>` tokens and `<#C…>` channel references. */
  mrkdwn(text: string, path: string) {
    for (const token of text.match(/<[^<>]*>/g) ?? []) {
      if (/^<!date\^\d+\^[^|>]*\|[^<>|]*>$/.test(token)) continue;
      // A Slack channel reference (`<#C123>`, App Home's channel lists) names a channel; it never pings.
      if (/^<#[CG][A-Z0-9_]+>$/.test(token)) continue;
      if (/^<(https?:|mailto:)[^\s<>|]+(\|[^<>|]+)?>$/i.test(token)) continue;
      this.fail(path, `unexpected token ${token}`);
    }
    const stray = text.replace(/<[^<>]*>/g, '');
    if (/[<]/.test(stray)) this.fail(path, 'unescaped <');
    if (/&(?!amp;|lt;|gt;)/.test(text)) this.fail(path, 'unescaped &');
  }

  actionId(value: unknown, path: string) {
    if (typeof value !== 'string' || value.length === 0) return this.fail(path, 'action_id missing');
    if (value.length > LIMITS.actionId) this.fail(path, 'action_id too long');
    if (!KNOWN_ACTION_IDS.has(value)) this.fail(path, `action_id ${value} is not in src/render/ids.ts`);
    if (this.actionIds.has(value)) this.fail(path, `action_id ${value} repeated`);
    this.actionIds.add(value);
  }

  element(el: unknown, path: string) {
    if (!isObject(el)) return this.fail(path, 'element is not an object');
    switch (el.type) {
      case 'button':
        this.actionId(el.action_id, `${path}.action_id`);
        this.text(el.text, `${path}.text`, LIMITS.buttonText, ['plain_text']);
        if (
          el.value !== undefined &&
          (typeof el.value !== 'string' || el.value.length > LIMITS.buttonValue)
        ) {
          this.fail(path, 'button value too long');
        }
        if (el.url !== undefined) {
          if (typeof el.url !== 'string' || el.url.length > LIMITS.buttonUrl)
            this.fail(path, 'button url too long');
          else if (!/^https?:\/\//i.test(el.url)) this.fail(path, `button url ${el.url} is not http(s)`);
        }
        if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger')
          this.fail(path, 'bad style');
        break;
      case 'plain_text_input': {
        this.actionId(el.action_id, `${path}.action_id`);
        const max = typeof el.max_length === 'number' ? el.max_length : LIMITS.plainTextInputMaxLength;
        if (max > LIMITS.plainTextInputMaxLength) this.fail(path, 'max_length over 3000');
        if (typeof el.initial_value === 'string' && el.initial_value.length > max) {
          this.fail(path, 'initial_value longer than max_length');
        }
        if (el.placeholder !== undefined)
          this.text(el.placeholder, `${path}.placeholder`, LIMITS.placeholder, ['plain_text']);
        break;
      }
      case 'external_select':
      case 'static_select':
        this.actionId(el.action_id, `${path}.action_id`);
        if (el.placeholder !== undefined)
          this.text(el.placeholder, `${path}.placeholder`, LIMITS.placeholder, ['plain_text']);
        if (el.initial_option !== undefined) this.option(el.initial_option, `${path}.initial_option`);
        if (Array.isArray(el.options)) this.options(el.options, `${path}.options`);
        break;
      case 'plain_text':
      case 'mrkdwn':
        this.text(el, path, LIMITS.contextText);
        break;
      case 'image':
        break;
      default:
        this.fail(path, `element type ${String(el.type)} not checked`);
    }
  }

  option(option: unknown, path: string) {
    if (!isObject(option)) return this.fail(path, 'option is not an object');
    this.text(option.text, `${path}.text`, LIMITS.optionText, ['plain_text']);
    if (
      typeof option.value !== 'string' ||
      option.value.length === 0 ||
      option.value.length > LIMITS.optionValue
    ) {
      this.fail(path, 'option value missing or over 150');
    }
  }

  options(options: unknown[], path: string) {
    if (options.length > LIMITS.options) this.fail(path, `${options.length} options, limit 100`);
    options.forEach((o, i) => {
      this.option(o, `${path}[${i}]`);
    });
  }

  block(block: unknown, path: string) {
    if (!isObject(block)) return this.fail(path, 'block is not an object');
    if (block.block_id !== undefined) {
      if (typeof block.block_id !== 'string' || block.block_id.length > LIMITS.blockId)
        this.fail(path, 'bad block_id');
      else if (this.blockIds.has(block.block_id)) this.fail(path, `block_id ${block.block_id} repeated`);
      else this.blockIds.add(block.block_id);
    }
    switch (block.type) {
      case 'section':
        if (block.text === undefined && block.fields === undefined) this.fail(path, 'section without text');
        if (block.text !== undefined) this.text(block.text, `${path}.text`, LIMITS.sectionText);
        if (Array.isArray(block.fields)) {
          if (block.fields.length > LIMITS.sectionFields) this.fail(path, 'too many fields');
          block.fields.forEach((f, i) => {
            this.text(f, `${path}.fields[${i}]`, LIMITS.fieldText);
          });
        }
        if (block.accessory !== undefined) this.element(block.accessory, `${path}.accessory`);
        break;
      case 'header':
        this.text(block.text, `${path}.text`, LIMITS.headerText, ['plain_text']);
        break;
      case 'context':
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return this.fail(path, 'empty context');
        if (block.elements.length > LIMITS.contextElements) this.fail(path, 'too many context elements');
        block.elements.forEach((e, i) => {
          this.element(e, `${path}.elements[${i}]`);
        });
        break;
      case 'actions':
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return this.fail(path, 'empty actions');
        if (block.elements.length > LIMITS.actionsElements) this.fail(path, 'too many actions');
        block.elements.forEach((e, i) => {
          this.element(e, `${path}.elements[${i}]`);
        });
        break;
      case 'input':
        this.text(block.label, `${path}.label`, LIMITS.inputLabel, ['plain_text']);
        if (block.hint !== undefined) this.text(block.hint, `${path}.hint`, LIMITS.inputHint, ['plain_text']);
        this.element(block.element, `${path}.element`);
        break;
      case 'divider':
        break;
      default:
        this.fail(path, `block type ${String(block.type)} not checked`);
    }
  }

  blocks(blocks: unknown, max: number) {
    if (!Array.isArray(blocks)) return this.fail('blocks', 'not an array');
    if (blocks.length > max) this.fail('blocks', `${blocks.length} blocks, limit ${max}`);
    blocks.forEach((b, i) => {
      this.block(b, `blocks[${i}]`);
    });
  }

  throwIfAny() {
    if (this.problems.length > 0)
      throw new Error(`Block Kit limits broken:\n${this.problems.slice(0, 10).join('\n')}`);
  }
}

/** Blocks of a message (≤ 50) or a modal (≤ 100), every text within its limit, every id ours. */
export function assertWithinLimits(blocks: unknown, surface: 'message' | 'modal' = 'message'): void {
  const checker = new Checker();
  checker.blocks(blocks, surface === 'message' ? LIMITS.messageBlocks : LIMITS.modalBlocks);
  checker.throwIfAny();
}

/** A message payload: its `text` fallback (≤ 40000, escaped) and its blocks. */
export function assertMessageWithinLimits(message: { text: string; blocks?: unknown }): void {
  const checker = new Checker();
  if (message.text.length === 0 || message.text.length > LIMITS.messageText)
    checker.fail('text', 'bad length');
  checker.mrkdwn(message.text, 'text');
  if (message.blocks !== undefined) checker.blocks(message.blocks, LIMITS.messageBlocks);
  checker.throwIfAny();
}

/** A modal view: title, submit and close ≤ 24, metadata ≤ 3000, blocks ≤ 100. */
export function assertViewWithinLimits(view: unknown): void {
  const checker = new Checker();
  if (!isObject(view)) throw new Error('view is not an object');
  if (view.type !== 'modal') checker.fail('type', 'not a modal');
  checker.text(view.title, 'title', LIMITS.modalTitle, ['plain_text']);
  if (view.submit !== undefined) checker.text(view.submit, 'submit', LIMITS.modalButton, ['plain_text']);
  if (view.close !== undefined) checker.text(view.close, 'close', LIMITS.modalButton, ['plain_text']);
  if (typeof view.callback_id !== 'string' || view.callback_id.length > LIMITS.callbackId)
    checker.fail('callback_id', 'bad');
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > LIMITS.privateMetadata) {
    checker.fail('private_metadata', 'over 3000');
  }
  checker.blocks(view.blocks, LIMITS.modalBlocks);
  checker.throwIfAny();
}

/** Every text object of a payload (mrkdwn and plain), for assertions on content. */
export function allTexts(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) {
      if ((v.type === 'mrkdwn' || v.type === 'plain_text') && typeof v.text === 'string') out.push(v.text);
      else Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return out;
}
