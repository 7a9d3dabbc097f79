/**
 * The sandbox console in a real browser (Debian's chromium, driven by playwright-core): the
 * sandbox starts in-process on free ports under a private Redis prefix, and a person walks the
 * main journey — help, link, a post through the modal and its channel picker, resolve from the
 * card, a comment by a thread reply, a DM and Grace's answer from the service side (mirrored
 * back into the channel by the bot). Every wait is on a DOM condition. Screenshots of each step
 * go to test-output/console/.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/run.ts';
import { connectRedis, deleteKeys, whenReady } from '../../../src/store/redis.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(process.cwd(), 'test-output', 'console');
const WAIT = 15_000;

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`journey.browser.test: no Chromium at ${CHROMIUM} (apt-get install chromium); skipped`);
}

async function waitFor(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout: WAIT });
  return locator.first();
}

describe.skipIf(!hasChromium)('sandbox console: the main journey in a browser', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let page: Page;
  const prefix = `sandbox-test-${randomBytes(5).toString('hex')}`;
  let step = 0;
  const shot = async (name: string) => {
    step += 1;
    await page.screenshot({ path: join(SHOTS, `${String(step).padStart(2, '0')}-${name}.png`) });
  };
  const composer = () => page.locator('#composer-input');
  const say = async (text: string) => {
    await composer().fill(text);
    await composer().press('Enter');
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sandbox = await startSandbox({
      env: { PATH: process.env.PATH, REDIS_URL: process.env.REDIS_URL, LOG_LEVEL: 'silent' },
      plan: { slack: 'local', collab: 'emulator' },
      port: 0,
      prefix,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1360, height: 820 } });
    page.setDefaultTimeout(WAIT);
    // The page's own errors explain a failed wait better than the timeout does.
    page.on('pageerror', (error) => console.error('console page error:', error.message));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
    const redis = connectRedis(sandbox?.redisUrl ?? 'redis://127.0.0.1:6379', 'producer');
    await whenReady(redis).catch(() => {});
    await deleteKeys(redis, `${prefix}:*`);
    redis.disconnect();
  });

  it('help, link, post through the modal, resolve, comment in the thread, DM and its reply', async () => {
    await page.goto(sandbox.url);
    await expect.poll(() => page.locator('#user-switch').inputValue(), { timeout: WAIT }).toBe('U0ADA');
    await waitFor(page.locator('.emu-post'));

    // 1. /collab help: an ephemeral answer only Ada sees.
    await say('/collab help');
    const help = await waitFor(
      page.locator('.msg.ephemeral', { hasText: '/collab post' }).filter({ has: page.locator('.bk-header') }),
    );
    expect(await help.locator('.only-you').textContent()).toContain('Only visible to you');
    await shot('help');

    // 2. Link #general with replies, so thread replies under cards become comments.
    await say('/collab link #general with replies');
    await waitFor(page.locator('.msg.ephemeral', { hasText: 'Linked this Slack channel to #general' }));
    await shot('linked');

    // 3. /collab post: the modal, its external select of channels, title and content.
    await say('/collab post');
    const modal = await waitFor(page.locator('.modal', { hasText: 'New post' }));
    // Readable as it opens: the title has the focus, the channel picker's list stays closed.
    expect(await page.locator(':focus').getAttribute('data-action-id')).toBe('title_input');
    expect(await modal.locator('.bk-external-options').isHidden()).toBe(true);
    await shot('post-modal');
    await modal.locator('.bk-external-input').fill('gen');
    await (await waitFor(modal.locator('.bk-external-options .option', { hasText: '#general' }))).click();
    await modal.locator('[data-action-id="title_input"]').fill('Ship the sandbox');
    await modal.locator('[data-action-id="content_input"]').fill('It runs *without* Slack.');
    await shot('post-modal-filled');
    await modal.locator('.modal-submit').click();
    await page.locator('#modal-root').waitFor({ state: 'hidden' });

    // 4. The card, posted in the channel for everyone.
    const card = await waitFor(
      page.locator('.msg:not(.ephemeral)', { hasText: 'Ship the sandbox' }).filter({
        has: page.locator('.bk-button', { hasText: 'Resolve' }),
      }),
    );
    await shot('card');

    // 4b. What Slack draws: the card's time as a date token in Ada's zone (Paris), emoji as emoji.
    const time = card.locator('time').first();
    const instant = (await time.getAttribute('datetime')) ?? '';
    const inParis = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Paris',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(instant));
    expect(await time.textContent()).toContain(inParis);
    expect(await time.getAttribute('title')).toMatch(/ UTC$/);

    // 4c. The post's link, pasted in the channel, is unfurled under the message (link_shared → chat.unfurl).
    const postUrl = (await card.locator('.bk-button', { hasText: /^Open$/ }).getAttribute('data-url')) ?? '';
    expect(postUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\/posts\/[0-9a-z]+$/);
    await say(`Have a look: ${postUrl}`);
    const unfurl = await waitFor(
      page.locator('.msg', { hasText: 'Have a look' }).locator('.unfurl', { hasText: 'Ship the sandbox' }),
    );
    expect(await unfurl.textContent()).not.toMatch(/:[a-z0-9_+-]+:|<#|<@|<!date/);
    await shot('unfurl');

    // 5. Resolve from the card: it updates in place (Reopen, Resolved), and so does the unfurl.
    await card.locator('.bk-button', { hasText: /^Resolve$/ }).click();
    const resolvedCard = page.locator('.msg:not(.ephemeral)', { hasText: 'Ship the sandbox' }).filter({
      has: page.locator('.bk-button', { hasText: 'Reopen' }),
    });
    await waitFor(resolvedCard);
    await expect.poll(() => resolvedCard.first().textContent(), { timeout: WAIT }).toContain('Resolved');
    await waitFor(
      page
        .locator('.msg', { hasText: 'Have a look' })
        .locator('.unfurl', { hasText: 'Resolved by Ada Lovelace' }),
    );
    await waitFor(page.locator('.emu-post', { hasText: 'Ship the sandbox' }).locator('.badge.resolved'));
    await shot('card-resolved');

    // 6. A reply in the card's thread becomes a comment on the post.
    const resolved = resolvedCard.first();
    await resolved.hover();
    await resolved.locator('.msg-more').click();
    await resolved.locator('.menu-item', { hasText: 'Reply in thread' }).click();
    const reply = await waitFor(page.locator('.thread-input'));
    await reply.fill('Looks good to me');
    await reply.press('Enter');
    await waitFor(page.locator('.thread .msg', { hasText: 'Looks good to me' }));
    await waitFor(
      page
        .locator('.emu-post', { hasText: 'Ship the sandbox' })
        .locator('.emu-comment', { hasText: 'Looks good to me' }),
    );
    await shot('thread-comment');

    // 7. /collab dm @grace (picked from the @ list, sent as a Slack mention): a chat thread message.
    await composer().fill('/collab dm @gra');
    await (await waitFor(page.locator('#mention-list .option', { hasText: 'grace' }))).click();
    await composer().press('End');
    await composer().type('hello from the sandbox');
    await composer().press('Enter');
    await waitFor(page.locator('.msg.ephemeral', { hasText: /Sent to .*Grace/ }));
    await waitFor(page.locator('.emu-thread .emu-message', { hasText: 'hello from the sandbox' }));
    await shot('dm');

    // 7b. Grace answers in that thread from the side panel; the bot mirrors it into #general.
    const dmThread = page
      .locator('.emu-thread')
      .filter({ has: page.locator('.emu-message', { hasText: 'hello from the sandbox' }) });
    const replyForm = dmThread.locator('.emu-reply');
    await waitFor(replyForm);
    // The DM's sender is Ada: the form offers Grace first.
    expect(await replyForm.locator('.emu-reply-member option:checked').textContent()).toContain('Grace');
    await replyForm.locator('.emu-reply-input').fill('Hi Ada, noon works');
    await replyForm.locator('.send').click();
    await waitFor(dmThread.locator('.emu-message', { hasText: 'Hi Ada, noon works' }));
    const mirrored = await waitFor(
      page.locator('#messages .msg:not(.ephemeral)', { hasText: 'noon works' }).filter({ hasText: 'Grace' }),
    );
    expect(await mirrored.locator('.author').textContent()).toBe('Collab');
    // For the picture: the panel shows its threads from the top.
    await page
      .locator('#emulator-state h3', { hasText: 'Threads' })
      .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('dm-reply');

    // 7c. The composer's ⚡ menu: the global shortcut "New post" opens the post form.
    await page.locator('#shortcuts-button').click();
    await (await waitFor(page.locator('#shortcuts-menu .menu-item', { hasText: 'New post' }))).click();
    const fromShortcut = await waitFor(page.locator('.modal', { hasText: 'New post' }));
    expect(await page.locator(':focus').getAttribute('data-action-id')).toBe('title_input');
    await fromShortcut.locator('.modal-close').click();
    await page.locator('#modal-root').waitFor({ state: 'hidden' });

    // 7d. Create post from message: the title is the message's first line; the card goes into its thread.
    await say('Release notes are late\nThe doc is not reviewed yet.');
    const source = await waitFor(
      page.locator('#messages > .msg:not(.ephemeral)', { hasText: 'Release notes are late' }),
    );
    await source.hover();
    await source.locator('.msg-more').first().click();
    await source.locator('.menu-item', { hasText: 'Create post from message' }).first().click();
    const fromMessage = await waitFor(page.locator('.modal', { hasText: 'New post' }));
    expect(await fromMessage.locator('[data-action-id="title_input"]').inputValue()).toBe(
      'Release notes are late',
    );
    await shot('post-from-message');
    await fromMessage.locator('.modal-submit').click();
    await page.locator('#modal-root').waitFor({ state: 'hidden' });
    await waitFor(page.locator('.msg.ephemeral', { hasText: 'Its card is in the thread of the message' }));
    await waitFor(source.locator('.thread-toggle'));

    // 7e. App Home: sections without raw Slack syntax (the link audit reads "#general with replies").
    await page.locator('#apps .nav-item').first().click();
    const home = await waitFor(page.locator('#home .surface', { hasText: 'link requested' }));
    const homeText = (await home.textContent()) ?? '';
    expect(homeText).toContain('#general with replies');
    expect(homeText).not.toMatch(/<#|<@|<!date|&lt;|&gt;|:[a-z0-9_+-]+:/);
    await shot('app-home');
    await page.locator('#channels .nav-item', { hasText: 'general' }).click();

    // 8. Grace sees the card, but none of Ada's ephemeral notes.
    await page.locator('#user-switch').selectOption('U0GRACE');
    await expect.poll(() => page.locator('.msg.ephemeral').count(), { timeout: WAIT }).toBe(0);
    await waitFor(page.locator('.msg', { hasText: 'Ship the sandbox' }));
    await shot('as-grace');
  }, 120_000);

  // ---- Service content: the service answers HTML (converted from the markdown written) with its
  // own tags; no card, list or digest on the page may show markdown or HTML syntax. ----
  it('no card, list or digest shows markdown, HTML or Slack escape syntax', async () => {
    await page.locator('#user-switch').selectOption('U0ADA');
    await say('/collab post #general **Thursday** chess at [noon](https://example.com/noon) & _snacks_');
    const card = await waitFor(
      page.locator('.msg:not(.ephemeral)', { hasText: 'Thursday' }).filter({
        has: page.locator('.bk-button', { hasText: 'Resolve' }),
      }),
    );
    await say('/collab posts');
    await waitFor(page.locator('.msg.ephemeral', { hasText: 'Recent posts' }));
    await say('/collab digest run');
    await waitFor(page.locator('.msg', { hasText: /Digest of #general/ }));
    await shot('service-content');

    // Markdown, HTML, and Slack's own escapes (a mention, a channel, a date token, a raw link).
    const SYNTAX = [
      '**',
      '](',
      '<p>',
      '</',
      '&lt;',
      '&amp;',
      '<span',
      '<em>',
      '<strong>',
      '<#C',
      '<@U',
      '<!date',
      '<http',
    ];
    const shown = (await page.locator('#messages').allInnerTexts()).join('\n');
    for (const syntax of SYNTAX) expect(shown, `the page shows "${syntax}"`).not.toContain(syntax);
    // The markdown became formatting: bold text and a link, not marks.
    expect(await card.locator('b, strong').filter({ hasText: 'Thursday' }).count()).toBeGreaterThan(0);
    expect(await card.locator('a', { hasText: 'noon' }).count()).toBeGreaterThan(0);
  }, 60_000);
});
