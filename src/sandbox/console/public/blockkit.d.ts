/** Types of blockkit.js (plain JS served to the browser as is; vitest imports it too). */
export interface RenderOptions {
  /** display names by user id, for `<@U…>` */
  users?: Record<string, string>;
  /** names by Slack channel id, for `<#C…>` */
  channels?: Record<string, string>;
  /** time zone of `<!date^…>` (default the runtime's) */
  timeZone?: string;
  /** Slack's emoji by shortcode (without colons), as the console serves them at /emoji.json */
  emoji?: Record<string, string>;
  /** input errors by block id (a view_submission's `response_action: 'errors'`) */
  errors?: Record<string, string>;
}
export function escapeHtml(value: unknown): string;
export function mrkdwnToHtml(text: string, options?: RenderOptions): string;
export function textToHtml(text: Record<string, unknown> | undefined, options?: RenderOptions): string;
export function renderBlocks(blocks: unknown, options?: RenderOptions): string;
