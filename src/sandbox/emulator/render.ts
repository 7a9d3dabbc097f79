/**
 * Markdown in, simple HTML out. The spec leaves the format of `content` in responses "not
 * shown"; the emulator answers HTML (the hardest case for the bot): paragraphs (blank-line
 * separated) wrapped in `<p>`, single newlines as `<br>`, all text HTML-escaped.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function markdownToHtml(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}
