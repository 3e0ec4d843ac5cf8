/**
 * A text as a regular expression that matches exactly that text: every character with a meaning in a
 * pattern gets a backslash. Keyword names, file names and hashes become parts of larger patterns.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
