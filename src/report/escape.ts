/**
 * Every string a user or the simulator supplies (titles, series names, scenario YAML) goes into
 * the page through this function, in text and in double- or single-quoted attribute values alike.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
