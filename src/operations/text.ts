/**
 * Characters that never travel in people's words, neither into an operation (and so to the
 * service) nor onto a Slack surface: C0 controls, DEL and C1 controls (garbage shown as boxes),
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * reorder what a reader sees: a title could show text other than the one written ("Trojan
 * Source"). Newlines and tabs stay, and so do the marks that only nudge neutral characters (LRM,
 * RLM), other scripts and emoji sequences.
 */
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** Removes control and bidirectional-override characters, keeping `\n` and `\t`. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, (c) => (c === '\n' || c === '\t' ? c : ''));
}
