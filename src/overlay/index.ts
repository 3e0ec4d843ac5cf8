import { type Api, createApi } from './api'
import { h } from './dom'
import { idsOfText, type MessageText, messageTextIn, textNodeAt } from './find'
import { drawOutlines, messageTexts, type Outline, overflowingTexts, untranslatedTexts } from './highlight'
import { renderPanel } from './panel'
import { STYLES } from './styles'
import type { MessageInfo, RuntimeBridge, Settings } from './types'

/**
 * The in-context review overlay of the dev page (docs/dev-overlay.md). Alt+click on a text, or the
 * "Pick a text" button then a click, opens the panel of the message behind it; Alt+Shift+M opens it
 * for the focused element; Escape closes it. "Highlight" outlines the untranslated texts of the
 * current locale, or in a pseudo-locale the texts that do not fit their box.
 *
 * Everything lives in one shadow root: the page's CSS does not reach the overlay, and the overlay's
 * does not reach the page.
 */
export function start(settings: Settings, runtime: RuntimeBridge): void {
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => mount(settings, runtime), { once: true })
  } else mount(settings, runtime)
}

function mount(settings: Settings, runtime: RuntimeBridge): void {
  const api = createApi(settings)
  const host = h('div', { id: 'tms-overlay' })
  const root = host.attachShadow({ mode: 'open' })
  const pick = h(
    'button',
    {
      type: 'button',
      'aria-pressed': 'false',
      'data-tms': 'pick',
      title: 'Then click a text (or Alt+click any time)',
    },
    'Pick a text',
  )
  const highlight = h(
    'button',
    { type: 'button', 'aria-pressed': 'false', 'data-tms': 'highlight' },
    'Highlight',
  )
  const status = h('span', { class: 'status', role: 'status', 'data-tms': 'status' })
  const panel = h('section', {
    class: 'panel',
    role: 'dialog',
    'aria-labelledby': 'tms-panel-title',
    'data-tms': 'panel',
    hidden: '',
  })
  const layer = h('div', { class: 'layer', 'data-tms': 'layer' })
  root.append(
    h('style', {}, STYLES),
    layer,
    h(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Translation review' },
      status,
      pick,
      highlight,
    ),
    panel,
  )
  document.documentElement.append(host)

  let picking = false
  let returnFocus: HTMLElement | null = null
  /** Stops the open panel following the page's locale. */
  let unfollow: (() => void) | undefined
  const setPicking = (on: boolean): void => {
    picking = on
    pick.setAttribute('aria-pressed', String(on))
    document.documentElement.style.cursor = on ? 'crosshair' : ''
  }
  const closePanel = (): void => {
    unfollow?.()
    unfollow = undefined
    panel.hidden = true
    panel.replaceChildren()
    returnFocus?.focus()
    returnFocus = null
  }
  const openPanel = async (found: MessageText): Promise<void> => {
    returnFocus =
      document.activeElement instanceof HTMLElement && !host.contains(document.activeElement)
        ? document.activeElement
        : null
    unfollow?.()
    unfollow = undefined
    panel.hidden = false
    panel.replaceChildren(h('p', {}, 'Loading…'))
    panel.setAttribute('data-id', found.ids[0]!)
    try {
      const info = await api<MessageInfo>('message', { id: found.ids[0] })
      unfollow = renderPanel(
        panel,
        info,
        { api, settings, locale: runtime.getLocale, onLocaleChange: runtime.onLocaleChange },
        closePanel,
      )
    } catch (error) {
      panel.replaceChildren(h('p', { class: 'error', role: 'alert' }, (error as Error).message))
    }
    panel.querySelector<HTMLElement>('button, a, select, textarea')?.focus()
  }

  pick.addEventListener('click', () => setPicking(!picking))
  document.addEventListener(
    'click',
    (event) => {
      if (!(event.altKey || picking) || host.contains(event.target as Node)) return
      const node = textNodeAt(event.clientX, event.clientY)
      const ids = node ? idsOfText(runtime.seen, node.nodeValue ?? '') : []
      const found =
        node && ids.length > 0
          ? { node, ids }
          : event.target instanceof Element
            ? messageTextIn(runtime.seen, event.target, host)
            : undefined
      if (!found) return
      event.preventDefault()
      event.stopPropagation()
      setPicking(false)
      void openPanel(found)
    },
    true,
  )
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      if (picking) setPicking(false)
      if (!panel.hidden) closePanel()
      return
    }
    if (event.altKey && event.shiftKey && event.code === 'KeyM') {
      const focused = document.activeElement
      const found =
        focused && !host.contains(focused) ? messageTextIn(runtime.seen, focused, host) : undefined
      if (!found) return
      event.preventDefault()
      void openPanel(found)
    }
  })

  const highlighter = createHighlighter(settings, runtime, api, host, layer, status)
  highlight.addEventListener('click', () => {
    const on = highlight.getAttribute('aria-pressed') !== 'true'
    highlight.setAttribute('aria-pressed', String(on))
    highlighter.set(on)
  })
}

/** Highlight mode: redrawn when the locale changes, the page changes, or the window scrolls or resizes. */
function createHighlighter(
  settings: Settings,
  runtime: RuntimeBridge,
  api: Api,
  host: Element,
  layer: HTMLElement,
  status: HTMLElement,
): { set(on: boolean): void } {
  let on = false
  let scheduled = false
  let run = 0
  const translated = new Map<string, Promise<Set<string>>>()
  const observer = new MutationObserver(() => schedule())

  const idsOf = (locale: string): Promise<Set<string>> => {
    let known = translated.get(locale)
    if (!known) {
      known = api<{ ids: string[] }>('translated', { locale }).then((r) => new Set(r.ids))
      // A failed answer is asked again next time.
      known.catch(() => translated.delete(locale))
      translated.set(locale, known)
    }
    return known
  }

  const draw = async (): Promise<void> => {
    const mine = ++run
    const locale = runtime.getLocale()
    const texts = messageTexts(runtime.seen, host)
    let outlines: Outline[] = []
    let label: string
    if (settings.pseudo.includes(locale)) {
      outlines = overflowingTexts(texts)
      label = `${outlines.length} overflowing text${outlines.length === 1 ? '' : 's'} in ${locale}`
    } else if (!locale || locale === settings.sourceLocale) {
      label = `${locale || settings.sourceLocale} is the source locale`
    } else {
      try {
        outlines = untranslatedTexts(texts, await idsOf(locale))
        label = `${outlines.length} untranslated text${outlines.length === 1 ? '' : 's'} in ${locale}`
      } catch (error) {
        label = (error as Error).message
      }
    }
    if (mine !== run || !on) return
    observer.disconnect()
    drawOutlines(layer, outlines)
    status.textContent = label
    status.setAttribute('data-count', String(outlines.length))
    status.setAttribute('data-locale', locale)
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
  }

  function schedule(): void {
    if (!on || scheduled) return
    scheduled = true
    requestAnimationFrame(() => {
      scheduled = false
      void draw()
    })
  }

  runtime.onLocaleChange(() => {
    // A hot update may have changed the locale's catalog.
    translated.clear()
    schedule()
  })
  window.addEventListener('resize', schedule)
  return {
    set(next) {
      on = next
      if (on) {
        schedule()
        return
      }
      run++
      observer.disconnect()
      layer.replaceChildren()
      status.textContent = ''
      status.removeAttribute('data-count')
    },
  }
}
