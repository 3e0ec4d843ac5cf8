/** From a text of the page to the catalog ids that made it, through the runtime's notes. */

export interface MessageText {
  node: Text
  ids: string[]
}

/** The catalog ids behind a text: the lookup that gave exactly this text, else the longest one inside it. */
export function idsOfText(seen: Map<string, string[]>, raw: string): string[] {
  const text = raw.trim()
  if (!text) return []
  const exact = seen.get(text)
  if (exact) return exact
  let best: string | undefined
  for (const known of seen.keys()) {
    if (known.length > (best?.length ?? 0) && text.includes(known)) best = known
  }
  return best === undefined ? [] : seen.get(best)!
}

/** The text node under a point of the viewport, if any. */
export function textNodeAt(x: number, y: number): Text | undefined {
  const doc = document as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node } | null
    caretRangeFromPoint?: (x: number, y: number) => Range | null
  }
  const node =
    doc.caretPositionFromPoint?.(x, y)?.offsetNode ?? doc.caretRangeFromPoint?.(x, y)?.startContainer
  return node?.nodeType === Node.TEXT_NODE ? (node as Text) : undefined
}

/** Every text node of the page that a lookup made, outside the overlay's own element. */
export function messageTexts(
  seen: Map<string, string[]>,
  skip: Element,
  root: Node = document.body,
): MessageText[] {
  const out: MessageText[] = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      const parent = node.parentElement
      if (!parent || skip.contains(parent) || /^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(parent.tagName)) {
        return NodeFilter.FILTER_REJECT
      }
      return node.nodeValue?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP
    },
  })
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const ids = idsOfText(seen, node.nodeValue!)
    if (ids.length > 0) out.push({ node: node as Text, ids })
  }
  return out
}

/** The first message text at or inside an element (a click on a button's padding, a focused control). */
export function messageTextIn(
  seen: Map<string, string[]>,
  el: Element,
  skip: Element,
): MessageText | undefined {
  return messageTexts(seen, skip, el)[0]
}
