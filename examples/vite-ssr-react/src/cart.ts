/**
 * The cart's item count, as a data source would give it: after a few milliseconds, so that a server
 * renders many requests at once and each one's text after an await.
 */
export function loadCart(delayMs = 1 + Math.floor(Math.random() * 10)): Promise<number> {
  return new Promise((resolve) => setTimeout(() => resolve(3), delayMs))
}
