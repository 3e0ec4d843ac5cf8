/** Browser runtime stub: the plugin issue replaces it. Works untransformed: interpolates the source. */
export function t(text: string, values?: Record<string, unknown>): string {
  return values
    ? text.replace(/\{([\w$]+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
    : text
}
