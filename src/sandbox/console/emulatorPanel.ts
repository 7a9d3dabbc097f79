/**
 * The console's emulator panel: the emulated service's state, and a reply written in one of its
 * threads by one of its members, through the emulator's control API (the bot sees it like any
 * person's message).
 */
import { z } from 'zod';
import type { ChangeFeed } from './changes.ts';
import { BadRequest } from './http.ts';

/** A message written in a thread of the emulator by one of its members (the side panel's reply form). */
export const ReplyBody = z.object({
  threadId: z.string().min(1),
  member: z.string().min(1),
  text: z.string().trim().min(1).max(40_000),
});

export class EmulatorPanel {
  constructor(
    /** absent: the bot talks to a real collaboration API */
    private readonly emulatorUrl: string | undefined,
    private readonly changes: ChangeFeed,
  ) {}

  async state(): Promise<{ available: boolean; state?: unknown }> {
    if (this.emulatorUrl === undefined) return { available: false };
    const res = await fetch(`${this.emulatorUrl}/_emulator/state`, { signal: AbortSignal.timeout(5000) });
    return { available: true, state: (await res.json()) as unknown };
  }

  async reply(input: z.infer<typeof ReplyBody>): Promise<{ ok: true; message: unknown }> {
    if (this.emulatorUrl === undefined) {
      throw new BadRequest('the bot talks to a real collaboration API: reply there');
    }
    const res = await fetch(`${this.emulatorUrl}/_emulator/act`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        as: input.member,
        op: 'createMessage',
        args: { thread_id: input.threadId, content_markdown: input.text },
      }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json().catch(() => ({}))) as { message?: unknown };
    if (!res.ok) {
      const why = typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
      if (res.status < 500) throw new BadRequest(`the emulator refused the message: ${why}`);
      throw new Error(`the emulator failed: ${why}`);
    }
    // Control requests raise no emulator event: the panel hears of it here.
    this.changes.broadcast('emulator');
    return { ok: true, message: body };
  }
}
