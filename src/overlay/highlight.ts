import { h } from './dom'
import { type MessageText, messageTexts } from './find'

/**
 * Layout checks: outlines, over the page, every text that is untranslated in the current locale, or
 * (in a pseudo-locale, whose longer texts are there to find tight boxes) every text that overflows or
 * is clipped by its box.
 */

export type HighlightKind = 'untranslated' | 'overflow'

export interface Outline {
  element: Element
  kind: HighlightKind
  text: string
}

/** The texts a lookup made whose ids the current locale's catalog lacks (shown ones: see {@link shown}). */
export function untranslatedTexts(texts: MessageText[], translated: ReadonlySet<string>): Outline[] {
  return texts
    .filter((t) => !t.ids.some((id) => translated.has(id)) && shown(t.node))
    .map((t) => ({ element: t.node.parentElement!, kind: 'untranslated', text: t.node.nodeValue!.trim() }))
}

/** The texts that do not fit: wider or taller than their element, or cut by an ancestor that clips. */
export function overflowingTexts(texts: MessageText[]): Outline[] {
  return texts
    .filter((t) => shown(t.node) && overflows(t.node))
    .map((t) => ({ element: t.node.parentElement!, kind: 'overflow', text: t.node.nodeValue!.trim() }))
}

const SLACK = 1

/**
 * Whether anyone sees the text: rendered, not `visibility: hidden`, and not clipped to a box of 1 px
 * or less by the ancestors that clip it. The last is the visually-hidden pattern (a 1 px box with
 * `overflow: hidden` and `clip` or `clip-path`): screen readers read such a text, nobody sees it, and
 * an outline of it would be a dot, or (in a pseudo-locale) a false "does not fit".
 */
function shown(node: Text): boolean {
  const el = node.parentElement!
  if (el.getClientRects().length === 0 || getComputedStyle(el).visibility !== 'visible') return false
  const range = document.createRange()
  range.selectNodeContents(node)
  let { left, top, right, bottom } = range.getBoundingClientRect()
  for (let box: Element | null = el; box && box !== document.documentElement; box = box.parentElement) {
    const style = getComputedStyle(box)
    const r = box.getBoundingClientRect()
    const clipped = style.clipPath !== 'none' || (style.clip !== 'auto' && style.clip !== '')
    if (clipped || style.overflowX !== 'visible') {
      left = Math.max(left, r.left)
      right = Math.min(right, r.right)
    }
    if (clipped || style.overflowY !== 'visible') {
      top = Math.max(top, r.top)
      bottom = Math.min(bottom, r.bottom)
    }
    const cut = clipRect(style.clip, r)
    if (cut) {
      left = Math.max(left, cut.left)
      right = Math.min(right, cut.right)
      top = Math.max(top, cut.top)
      bottom = Math.min(bottom, cut.bottom)
    }
    if (right - left <= SLACK || bottom - top <= SLACK) return false
  }
  return true
}

/** The area `clip: rect(top, right, bottom, left)` leaves of a box, in the viewport; undefined without one. */
function clipRect(
  clip: string,
  box: DOMRect,
): { left: number; top: number; right: number; bottom: number } | undefined {
  const edges = /^rect\((.*)\)$/.exec(clip)?.[1]?.split(/\s*,\s*|\s+/)
  if (edges?.length !== 4) return undefined
  const [top, right, bottom, left] = edges.map((e) => (e === 'auto' ? undefined : Number.parseFloat(e)))
  return {
    top: box.top + (top ?? 0),
    right: box.left + (right ?? box.width),
    bottom: box.top + (bottom ?? box.height),
    left: box.left + (left ?? 0),
  }
}

function overflows(node: Text): boolean {
  const el = node.parentElement!
  if (el.scrollWidth > el.clientWidth + SLACK && el.clientWidth > 0) return true
  if (el.scrollHeight > el.clientHeight + SLACK && el.clientHeight > 0) return true
  const range = document.createRange()
  range.selectNodeContents(node)
  const text = range.getBoundingClientRect()
  for (let box: Element | null = el; box && box !== document.documentElement; box = box.parentElement) {
    const style = getComputedStyle(box)
    if (box !== el && style.overflowX === 'visible' && style.overflowY === 'visible') continue
    if (style.display === 'inline') continue
    const r = box.getBoundingClientRect()
    if (
      text.right > r.right + SLACK ||
      text.left < r.left - SLACK ||
      text.bottom > r.bottom + SLACK ||
      text.top < r.top - SLACK
    ) {
      return true
    }
  }
  return false
}

/** The outlines as boxes in the overlay's layer (the page's own elements and styles stay untouched). */
export function drawOutlines(layer: HTMLElement, outlines: Outline[]): void {
  layer.replaceChildren()
  const seen = new Set<Element>()
  for (const o of outlines) {
    if (seen.has(o.element)) continue
    seen.add(o.element)
    const r = o.element.getBoundingClientRect()
    const box = h('div', { class: `outline ${o.kind}`, 'data-kind': o.kind, title: o.text })
    box.style.left = `${r.left + window.scrollX}px`
    box.style.top = `${r.top + window.scrollY}px`
    box.style.width = `${r.width}px`
    box.style.height = `${r.height}px`
    layer.append(box)
  }
}

export { messageTexts }
